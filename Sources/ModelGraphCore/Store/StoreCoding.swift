/// Byte forms of a catalog and of values, for a persistence that keeps them outside the files
/// (a database's schema record, its array and composite columns).
extension SchemaCatalog {
  /// The catalog's descriptions: eight `0xFF` bytes (no entity count of the older layout is
  /// that large), the snapshot format version (4 bytes), and a snapshot's schema block as that
  /// version lays it out, with each attribute's integer width.
  public var encodedBytes: [UInt8] {
    var writer = ByteWriter()
    writer.append(UInt64.max)
    writer.append(SnapshotFormat.integerWidthVersion)
    encode(into: &writer, version: SnapshotFormat.integerWidthVersion)
    return writer.bytes
  }

  /// The catalog ``encodedBytes`` describes, or that bytes without the version mark describe:
  /// a schema block as snapshot format version 3 lays it out (no integer widths: 64 bits).
  ///
  /// - Throws: ``SnapshotError`` for malformed bytes, or a version this build does not know.
  public init(encoded bytes: [UInt8], source: String) throws {
    self = try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: source, section: "schema")
      var version = SnapshotFormat.physicalSchemaVersion
      if bytes.count >= 12, bytes.prefix(8).allSatisfy({ $0 == 0xFF }) {
        _ = try reader.read(UInt64.self)
        version = try reader.read(UInt32.self)
        guard version >= SnapshotFormat.integerWidthVersion, version <= SnapshotFormat.version
        else { throw reader.error("schema layout of unknown format version \(version)") }
      }
      let catalog = try SchemaCatalog.decode(from: &reader, version: version)
      try reader.expectEnd()
      return catalog
    }
  }
}

extension ModelValue {
  /// The value's bytes, as a snapshot encodes a default value.
  public var encodedBytes: [UInt8] {
    var writer = ByteWriter()
    encode(into: &writer)
    return writer.bytes
  }

  /// The value ``encodedBytes`` describes.
  ///
  /// - Throws: ``SnapshotError`` for malformed bytes.
  public init(encoded bytes: [UInt8], source: String) throws {
    self = try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: source, section: "value")
      let value = try ModelValue.decode(from: &reader)
      try reader.expectEnd()
      return value
    }
  }
}
