/// Encodes a committed ``StoreVersion`` as the bytes of a snapshot file.
public enum SnapshotWriter {
  /// The snapshot file bytes of `version`.
  ///
  /// Columns are written as they are held in memory (raw for fixed-size types), each in a
  /// block with its length and CRC-32C. Traps on a string or data value of 4 GiB or more,
  /// which the format cannot hold; ``checkedEncode(_:lineage:path:)`` throws instead.
  /// - Complexity: O(total size of the store).
  public static func encode(_ version: StoreVersion, lineage: SnapshotLineage = SnapshotLineage())
    -> [UInt8]
  {
    var file = write(version, lineage: lineage, lengthLimit: Int(UInt32.max))
    precondition(file.oversized == nil, "a value of \(file.oversized ?? 0) bytes is too long")
    return file.bytes
  }

  /// The snapshot file bytes of `version`, or an error when a value is too long for the format.
  ///
  /// - Throws: ``SnapshotError`` with code ``SnapshotError/Code/valueTooLarge``.
  public static func checkedEncode(
    _ version: StoreVersion, lineage: SnapshotLineage = SnapshotLineage(), path: String
  ) throws -> [UInt8] {
    try checkedEncode(version, lineage: lineage, path: path, lengthLimit: Int(UInt32.max))
  }

  static func checkedEncode(
    _ version: StoreVersion, lineage: SnapshotLineage, path: String, lengthLimit: Int
  ) throws -> [UInt8] {
    var file = write(version, lineage: lineage, lengthLimit: lengthLimit)
    if let oversized = file.oversized {
      throw SnapshotError(
        .valueTooLarge, path: path, section: "write",
        message: "a string or data value of \(oversized) bytes is longer than the format's "
          + "limit of \(lengthLimit) bytes; the file was not written")
    }
    return file.bytes
  }

  /// The snapshot file bytes of `version` in an older layout, `formatVersion` 1 to the
  /// current one: the writer path of earlier builds, kept so tests can make their files.
  static func encode(
    _ version: StoreVersion, lineage: SnapshotLineage = SnapshotLineage(), formatVersion: UInt32
  ) -> [UInt8] {
    precondition((1...SnapshotFormat.version).contains(formatVersion))
    var file = write(
      version, lineage: lineage, lengthLimit: Int(UInt32.max), formatVersion: formatVersion)
    return file.bytes
  }

  static func write(
    _ version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory? = nil,
    lengthLimit: Int, formatVersion: UInt32 = SnapshotFormat.version
  ) -> ByteWriter {
    write(
      version, lineage: lineage, history: history, lengthLimit: lengthLimit,
      formatVersion: formatVersion, draining: false, to: { _ in })
  }

  /// The bytes held back before they are handed to a sink.
  static let sinkThreshold = 4 << 20

  /// Writes the file; when `draining`, the bytes go to `sink` in pieces of about
  /// ``sinkThreshold`` bytes (whole blocks) as they are made, and the writer returned holds
  /// none of them (otherwise `sink` is not called).
  ///
  /// The blocks are encoded on two threads (``SnapshotBlockPipeline``); the bytes are the same
  /// as one thread would write. The writing goes on after a value too long for the format
  /// (``ByteWriter/oversized``); the caller must then discard what the sink received. Without
  /// `history`, the file's history block keeps nothing and says every version up to
  /// `version`'s is dropped.
  static func write(
    _ version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory? = nil,
    lengthLimit: Int,
    formatVersion: UInt32 = SnapshotFormat.version, draining: Bool,
    to sink: (UnsafeRawBufferPointer) throws -> Void
  ) rethrows -> ByteWriter {
    var file = ByteWriter()
    file.lengthLimit = lengthLimit
    let estimate = estimatedSize(of: version)
    file.bytes.reserveCapacity(draining ? min(estimate, 2 * sinkThreshold) : estimate)
    file.bytes.append(contentsOf: SnapshotFormat.magic)
    file.append(formatVersion)
    file.append(UInt32(0))
    file.append(version.number)
    file.append(file.bytes.withUnsafeBytes { CRC32C.checksum($0) })
    var offsets: [UInt64] = []
    /// Appends an encoded block; a large one goes to the sink as it is, after what is held.
    func add(_ block: ByteWriter) throws {
      offsets.append(UInt64(file.flushed + file.count))
      file.oversized = file.oversized ?? block.oversized
      guard draining else { return block.withUnsafeBytes { file.append(raw: $0) } }
      if block.count < sinkThreshold / 4 {
        block.withUnsafeBytes { file.append(raw: $0) }
        if file.count >= sinkThreshold { try drain() }
        return
      }
      try drain()
      try block.withUnsafeBytes { try sink($0) }
      file.flushed += block.count
    }
    /// Hands the bytes held so far to the sink.
    func drain() throws {
      guard draining, !file.bytes.isEmpty else { return }
      try file.bytes.withUnsafeBytes { try sink($0) }
      file.flushed += file.bytes.count
      file.bytes.removeAll(keepingCapacity: true)
    }
    try SnapshotBlockPipeline.run(
      blocks(of: version, lineage: lineage, history: history, formatVersion: formatVersion),
      lengthLimit: lengthLimit, emit: add)
    let footerOffset = UInt64(file.flushed + file.count)
    let blockOffsets = offsets
    let footer = SnapshotBlockSource(kind: .footer, estimate: 8 + 8 * blockOffsets.count) {
      writer in
      writer.append(UInt64(blockOffsets.count))
      for offset in blockOffsets { writer.append(offset) }
    }
    footer.encoded(lengthLimit: lengthLimit).withUnsafeBytes { file.append(raw: $0) }
    file.append(footerOffset)
    file.bytes.append(contentsOf: SnapshotFormat.endMagic)
    try drain()
    return file
  }

  /// Every block of the file but the footer, in file order.
  static func blocks(
    of version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory?,
    formatVersion: UInt32
  ) -> [SnapshotBlockSource] {
    var blocks = [
      SnapshotBlockSource(kind: .schema, estimate: 4096) {
        version.catalog.encode(into: &$0, version: formatVersion)
      }
    ]
    for (index, table) in version.tables.enumerated() {
      blocks.append(
        SnapshotBlockSource(kind: .table, estimate: 20) {
          $0.append(UInt32(index))
          $0.append(UInt64(table.rowCount))
          $0.append(UInt64(table.liveCount))
        })
      let columns: [(SnapshotFormat.ColumnRole, Int, AnyColumn)] =
        [(.stamps, 0, table.stamps)]
        + table.attributeColumns.enumerated().map { (.attribute, $0, $1) }
        + table.relationshipColumns.enumerated().map { (.relationship, $0, $1) }
      for (role, slot, column) in columns {
        blocks.append(
          SnapshotBlockSource(kind: .column, estimate: 32 + column.elementStride * table.rowCount) {
            $0.append(UInt32(index))
            $0.append(role.rawValue)
            $0.append(UInt32(slot))
            column.encode(into: &$0, format: formatVersion)
          })
      }
    }
    if formatVersion >= SnapshotFormat.lineageVersion {
      blocks.append(
        SnapshotBlockSource(kind: .lineage, estimate: 16) {
          $0.append(lineage.generation)
          $0.append(lineage.previous)
        })
    }
    if formatVersion >= SnapshotFormat.historyVersion {
      let kept = history ?? KeptHistory(droppedThrough: version.number)
      blocks.append(SnapshotBlockSource(kind: .history, estimate: 64) { kept.encode(into: &$0) })
    }
    return blocks
  }

  /// A guess at the file's size, so the buffer rarely grows: 8 bytes per value.
  private static func estimatedSize(of version: StoreVersion) -> Int {
    version.tables.reduce(1 << 16) {
      $0 + $1.rowCount * (1 + $1.attributeColumns.count + $1.relationshipColumns.count) * 8
    }
  }
}
