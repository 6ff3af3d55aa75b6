/// Byte forms of a catalog and of values, for a persistence that keeps them outside the files
/// (a database's schema record, its array and composite columns).
extension SchemaCatalog {
  /// The catalog's descriptions, as a snapshot's schema block lays them out.
  public var encodedBytes: [UInt8] {
    var writer = ByteWriter()
    encode(into: &writer, version: SnapshotFormat.physicalSchemaVersion)
    return writer.bytes
  }

  /// The catalog ``encodedBytes`` describes.
  ///
  /// - Throws: ``SnapshotError`` for malformed bytes.
  public init(encoded bytes: [UInt8], source: String) throws {
    self = try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: source, section: "schema")
      let catalog = try SchemaCatalog.decode(
        from: &reader, version: SnapshotFormat.physicalSchemaVersion)
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
