/// Decodes the bytes of a snapshot file into a ``StoreVersion``, checking everything.
///
/// Every length and count is checked against the bytes that remain before anything is
/// allocated, every block's checksum is verified before its payload is read, and every
/// relationship key must name a row of a table in the file: a damaged file gives a
/// ``SnapshotError`` naming the section and byte offset, never a crash or a partial store.
public enum SnapshotReader {
  /// Decodes `bytes`, read from `path` (used in error messages only).
  ///
  /// - Throws: ``SnapshotError``.
  /// - Complexity: O(file size).
  public static func decode(_ bytes: [UInt8], path: String) throws -> StoreVersion {
    try bytes.withUnsafeBytes { try decode($0, path: path).version }
  }

  /// Decodes `bytes` with the lineage (generation numbers) the file carries; a version 1 file
  /// has generation 0.
  ///
  /// - Throws: ``SnapshotError``.
  public static func decodeWithLineage(_ bytes: [UInt8], path: String) throws -> (
    version: StoreVersion, lineage: SnapshotLineage
  ) {
    try bytes.withUnsafeBytes { try decode($0, path: path) }
  }

  /// The most memory the tables of a file of `fileSize` bytes may take: 16 bytes per byte of
  /// file, and at least 1 GiB. Columns allocate whole chunks of rows, so a hostile file of many
  /// one-row tables could otherwise ask for thousands of times its size.
  static func memoryBudget(fileSize: Int) -> Int {
    max(1 << 30, fileSize.multipliedReportingOverflow(by: 16).partialValue)
  }

  static func decode(
    _ bytes: UnsafeRawBufferPointer, path: String, memoryBudget budget: Int? = nil
  ) throws -> (version: StoreVersion, lineage: SnapshotLineage) {
    let file = try decodeWithHistory(bytes, path: path, memoryBudget: budget)
    return (file.version, file.lineage)
  }

  /// Decodes `bytes` with the lineage and the kept history the file carries; a file older than
  /// format 5 keeps no history (every version up to its own counts as dropped).
  ///
  /// A file of `parallelFrom` bytes or more has its column blocks checked and decoded on
  /// several threads; if anything in them is wrong, the file is decoded again on one thread,
  /// block after block, so the error is the one that reading in order meets first.
  static func decodeWithHistory(
    _ bytes: UnsafeRawBufferPointer, path: String, memoryBudget budget: Int? = nil,
    parallelFrom: Int = 8 << 20
  ) throws -> (version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory) {
    if bytes.count >= parallelFrom,
      let decoded = try? decodeWithHistory(
        bytes, path: path, memoryBudget: budget, parallel: true)
    {
      return decoded
    }
    return try decodeWithHistory(bytes, path: path, memoryBudget: budget, parallel: false)
  }

  /// Decodes `bytes`; with `parallel`, the column blocks are checked and decoded by
  /// ``ColumnBlockJob``s on several threads once every table's blocks are found.
  private static func decodeWithHistory(
    _ bytes: UnsafeRawBufferPointer, path: String, memoryBudget budget: Int?, parallel: Bool
  ) throws -> (version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory) {
    let budget = budget ?? memoryBudget(fileSize: bytes.count)
    var committed = 0
    var header = ByteReader(bytes, fileOffset: 0, path: path, section: "header")
    guard bytes.count >= SnapshotFormat.headerSize + SnapshotFormat.trailerSize else {
      if bytes.count >= 8, !bytes.prefix(8).elementsEqual(SnapshotFormat.magic) {
        throw header.error("not a ModelGraph snapshot (wrong magic bytes)", code: .badMagic)
      }
      throw header.error(
        "the file is \(bytes.count) bytes, too short for a snapshot", code: .truncated)
    }
    guard try header.readBytes(8).elementsEqual(SnapshotFormat.magic) else {
      throw SnapshotError(
        .badMagic, path: path, section: "header", offset: 0,
        message: "not a ModelGraph snapshot (wrong magic bytes)")
    }
    let version = try header.read(UInt32.self)
    guard version <= SnapshotFormat.version, version > 0 else {
      throw SnapshotError(
        .unsupportedVersion, path: path, section: "header", offset: 8,
        message:
          "format version \(version); this build reads versions 1 to \(SnapshotFormat.version)")
    }
    let flags = try header.read(UInt32.self)
    let number = try header.read(UInt64.self)
    let checksum = try header.read(UInt32.self)
    guard checksum == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<24])) else {
      throw SnapshotError(
        .checksumMismatch, path: path, section: "header", offset: 0,
        message: "checksum mismatch: the header is damaged")
    }
    guard flags == 0 else {
      throw SnapshotError(
        .unsupportedVersion, path: path, section: "header", offset: 12,
        message: "unknown format flags \(flags)")
    }

    var blocks = BlockCursor(bytes: bytes, path: path, position: SnapshotFormat.headerSize)
    var schema = try blocks.next(expecting: .schema, section: "schema")
    let catalog = try SchemaCatalog.decode(from: &schema, version: version)
    try schema.expectEnd()

    var tables: [Table] = []
    var liveCounts: [Int] = []
    var headerRowCounts: [Int] = []
    var jobs: [ColumnBlockJob] = []
    var relationshipOffsets: [[Int]] = []
    for entity in catalog.entities {
      let section = "table \(entity.name)"
      var info = try blocks.next(expecting: .table, section: section)
      guard try info.read(UInt32.self) == UInt32(entity.index) else {
        throw info.error("table of entity \(entity.index) expected here")
      }
      let rowCount = try info.read(UInt64.self)
      let liveCount = try info.read(UInt64.self)
      try info.expectEnd()
      guard rowCount <= UInt64(Int32.max), liveCount <= rowCount else {
        throw info.error("row counts \(liveCount)/\(rowCount) are impossible")
      }
      let table = Table(entity: entity)
      let chunkRows = (Int(rowCount) + AnyColumn.chunkMask) & ~AnyColumn.chunkMask
      let rowBytes =
        ([table.stamps] + table.attributeColumns + table.relationshipColumns)
        .reduce(0) { $0 + $1.elementStride }
      committed += chunkRows * rowBytes
      guard committed <= budget else {
        throw info.error(
          "the tables up to this one would take \(committed) bytes of memory, more than the "
            + "\(budget) a file of \(bytes.count) bytes may ask for")
      }
      let columns: [(SnapshotFormat.ColumnRole, Int, AnyColumn, String)] =
        [(.stamps, 0, table.stamps, "stamps")]
        + table.attributeColumns.enumerated().map {
          (.attribute, $0, $1, entity.attributes[$0].name)
        }
        + table.relationshipColumns.enumerated().map {
          (.relationship, $0, $1, entity.relationships[$0].name)
        }
      relationshipOffsets.append([])
      for (role, slot, column, name) in columns {
        if role == .relationship { relationshipOffsets[entity.index].append(blocks.position) }
        if parallel {
          let (block, checked) = try blocks.nextUnchecked(
            expecting: .column, section: "\(section) column \(name)")
          jobs.append(
            ColumnBlockJob(
              block: block, checked: checked, column: column, entity: entity.index, role: role,
              slot: slot, rowCount: Int(rowCount), format: version))
          continue
        }
        var block = try blocks.next(expecting: .column, section: "\(section) column \(name)")
        guard try block.read(UInt32.self) == UInt32(entity.index),
          try block.read(UInt8.self) == role.rawValue, try block.read(UInt32.self) == UInt32(slot)
        else { throw block.error("column \(name) expected here") }
        try block.expectRowCount(Int(rowCount))
        try column.decode(from: &block, format: version)
        try block.expectEnd()
        guard column.count == Int(rowCount) else {
          throw block.error("column holds \(column.count) rows, the table \(rowCount)")
        }
      }
      tables.append(table)
      liveCounts.append(Int(liveCount))
      headerRowCounts.append(Int(rowCount))
      if !parallel {
        try checkLiveRows(table, liveCount: Int(liveCount), path: path, offset: blocks.position)
      }
    }
    if parallel {
      // Each relationship column's keys are checked by its job, against the row counts the
      // table blocks announce (which every table's stamps job checks).
      let rowCounts = headerRowCounts.map { UInt32(truncatingIfNeeded: $0) }
      for index in jobs.indices where jobs[index].role == .relationship {
        jobs[index].keyLimits = keyLimits(
          entity: catalog.entities[jobs[index].entity], slot: jobs[index].slot, catalog: catalog,
          tables: tables, rowCounts: rowCounts)
      }
      try ColumnBlockJob.run(jobs, bytes: bytes)
      for (table, live) in zip(tables, liveCounts) {
        try checkLiveRows(table, liveCount: live, path: path, offset: blocks.position)
      }
    } else {
      try validateRelationships(
        tables, catalog: catalog, offsets: relationshipOffsets, path: path)
    }

    var lineage = SnapshotLineage()
    if version >= SnapshotFormat.lineageVersion {
      var block = try blocks.next(expecting: .lineage, section: "lineage")
      lineage.generation = try block.read(UInt64.self)
      lineage.previous = try block.read(UInt64.self)
      try block.expectEnd()
    }
    var history = KeptHistory(droppedThrough: number)
    if version >= SnapshotFormat.historyVersion {
      var block = try blocks.next(expecting: .history, section: "history")
      history = try KeptHistory.decode(from: &block, number: number)
      try block.expectEnd()
    }
    let footerOffset = blocks.position
    var footer = try blocks.next(expecting: .footer, section: "footer")
    let count = try footer.readCount(minimumSize: 8)
    for _ in 0..<count { _ = try footer.read(UInt64.self) }
    try footer.expectEnd()
    var trailer = ByteReader(
      UnsafeRawBufferPointer(rebasing: bytes[blocks.position...]), fileOffset: blocks.position,
      path: path, section: "trailer")
    guard try trailer.read(UInt64.self) == UInt64(footerOffset),
      try trailer.readBytes(8).elementsEqual(SnapshotFormat.endMagic), trailer.isAtEnd
    else { throw trailer.error("the trailer does not close the file") }
    return (StoreVersion(number: number, catalog: catalog, tables: tables), lineage, history)
  }

  /// Counts `table`'s live rows, which must be `liveCount`, and records the count.
  private static func checkLiveRows(_ table: Table, liveCount: Int, path: String, offset: Int)
    throws
  {
    // Counted chunk by chunk, the alive bits summed: no call per row.
    var live = 0
    table.stamps.forEachChunk { _, stamps in
      var count = 0
      for stamp in stamps { count &+= Int(stamp & 1) }
      live += count
    }
    guard live == liveCount else {
      throw SnapshotError(
        .malformed, path: path, section: "table \(table.entity.name)", offset: offset,
        message: "\(live) live rows, the table header says \(liveCount)")
    }
    table.liveCount = live
  }

  /// Every relationship key must name a row of a table of the file whose entity is the
  /// relationship's destination or one of its descendants.
  private static func validateRelationships(
    _ tables: [Table], catalog: SchemaCatalog, offsets: [[Int]], path: String
  ) throws {
    let rowCounts = tables.map { UInt32(truncatingIfNeeded: $0.rowCount) }
    for table in tables {
      for (slot, column) in table.relationshipColumns.enumerated() {
        let relationship = table.entity.relationships[slot]
        let limits = keyLimits(
          entity: table.entity, slot: slot, catalog: catalog, tables: tables,
          rowCounts: rowCounts)
        try validateKeys(of: column, limits: limits) { key, row in
          SnapshotError(
            .malformed, path: path,
            section: "table \(table.entity.name) column \(relationship.name)",
            offset: offsets[table.entity.index][slot],
            message: "row \(row) points at \(key), which is not a \(relationship.destination) "
              + "of the file")
        }
      }
    }
  }

  /// The row count of each table a key of relationship `slot` of `entity` may name (its
  /// destination's and its descendants'), 0 for the others, indexed by entity.
  static func keyLimits(
    entity: ResolvedEntity, slot: Int, catalog: SchemaCatalog, tables: [Table],
    rowCounts: [UInt32]
  ) -> [UInt32] {
    let relationship = entity.relationships[slot]
    let destination = catalog.entity(named: relationship.destination)?.index ?? -1
    return zip(tables, rowCounts).map { $0.entity.lineage.contains(destination) ? $1 : 0 }
  }

  /// Fails with `fail(key, row)` for the first key of the relationship column `column` that
  /// names no row below the limit of its entity (``keyLimits(entity:slot:catalog:tables:rowCounts:)``).
  static func validateKeys(
    of column: AnyColumn, limits: [UInt32], fail: (ObjectKey, Int) -> SnapshotError
  ) throws {
    try limits.withUnsafeBufferPointer { limits in
      @inline(__always) func isValid(_ key: ObjectKey) -> Bool {
        Int(key.entity) < limits.count && key.row < limits[Int(key.entity)]
      }
      if let many = column as? KeyListColumn {
        // Chunk by chunk, through the spans: no lookup per row.
        var start = 0
        try many.forEachChunk { rows, spans, keys in
          for offset in 0..<rows {
            let span = spans[offset]
            for key in UnsafeBufferPointer(start: keys + Int(span.start), count: Int(span.count))
            where !isValid(key) {
              throw fail(key, start + offset)
            }
          }
          start += rows
        }
      } else if let one = column as? Column<ObjectKey?> {
        try one.forEachChunk { start, values in
          for (index, key) in values.enumerated() {
            if let key, !isValid(key) { throw fail(key, start + index) }
          }
        }
      }
    }
  }
}

/// Walks the blocks of a file, verifying each block's bounds and checksum.
struct BlockCursor {
  let bytes: UnsafeRawBufferPointer
  let path: String
  var position: Int

  mutating func next(expecting kind: SnapshotFormat.BlockKind, section: String) throws
    -> ByteReader
  {
    let (reader, checked) = try nextUnchecked(expecting: kind, section: section)
    try checked.verify(bytes, path: path, section: section)
    return reader
  }

  /// The next block's payload, its bounds checked but not its checksum: the caller verifies
  /// `checked` before reading the payload.
  mutating func nextUnchecked(expecting kind: SnapshotFormat.BlockKind, section: String) throws
    -> (ByteReader, ChecksummedRange)
  {
    var header = ByteReader(
      UnsafeRawBufferPointer(rebasing: bytes[position...]), fileOffset: position, path: path,
      section: section)
    let start = position
    let rawKind = try header.read(UInt32.self)
    let length = try header.read(UInt64.self)
    guard rawKind == kind.rawValue else {
      throw SnapshotError(
        .malformed, path: path, section: section, offset: start,
        message: "block of kind \(rawKind) where a \(kind) block belongs")
    }
    guard length <= UInt64(header.remaining), Int(length) + 4 <= header.remaining else {
      throw SnapshotError(
        .truncated, path: path, section: section, offset: start,
        message: "the block announces \(length) bytes; the file ends first")
    }
    let payloadStart = start + 12
    let payloadEnd = payloadStart + Int(length)
    position = payloadEnd + 4
    let reader = ByteReader(
      UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<payloadEnd]),
      fileOffset: payloadStart, path: path, section: section)
    return (reader, ChecksummedRange(start: start, end: payloadEnd))
  }
}

/// A block's bytes before its stored checksum (header and payload), in bounds.
struct ChecksummedRange {
  var start: Int
  var end: Int

  /// Fails unless the checksum stored after the range matches its bytes.
  func verify(_ bytes: UnsafeRawBufferPointer, path: String, section: String) throws {
    let stored = UnsafeRawBufferPointer(rebasing: bytes[end..<end + 4])
      .loadUnaligned(as: UInt32.self)
    let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    guard UInt32(littleEndian: stored) == computed else {
      throw SnapshotError(
        .checksumMismatch, path: path, section: section, offset: start,
        message: "checksum mismatch: the block is damaged")
    }
  }
}

extension ByteReader {
  func expectEnd() throws {
    guard isAtEnd else { throw error("\(remaining) unexpected bytes at the end of the block") }
  }
}
