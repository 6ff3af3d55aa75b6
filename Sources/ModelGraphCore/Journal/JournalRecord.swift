/// The payload of a journal record: what one save changed, as the rows it left behind.
///
/// The payload is a catalog flag (0 when no entity was registered and no Codable shape recorded
/// since the last record; otherwise the whole catalog follows, laid out as in a snapshot's
/// schema block: 4 for the layout of snapshot format version 8, with integer widths, which this
/// build writes; 3 for that of version 5, with the Codable shapes; 2 for that of version 3,
/// with indexes and default values; 1 for that of version 2), a table count,
/// and per table: the entity index, the table's row count, the number of rows, and per row
/// its index, its stamp and, when an object lives in it, every attribute and relationship
/// value as a snapshot column block encodes it. Replaying a record writes those rows exactly, so replay is idempotent.
///
/// In journal format 2 the flag's bit 7 (``historyFlag``) says that the save's change for the
/// history follows the tables: the newest version the history no longer kept once it
/// recorded the save (`UInt64`), then the ``CommittedChange`` encoding. A record without it
/// (format 1, or a save made while history was off) leaves the history empty through its
/// version.
enum JournalRecord {
  /// The catalog flag's bit that says a history change follows the tables.
  static let historyFlag: UInt8 = 0x80

  /// One table's part of a save: the published table and the rows the save wrote.
  struct TableRows {
    var entity: Int
    var table: Table
    var rows: [Int]
  }

  /// The payload of a save that published `tables`, with `catalog` when it grew; `coders`
  /// caches the row coders of each entity (indexed by entity number, `nil` until its first
  /// record). The writer's ``ByteWriter/oversized`` says when a value was too long for the
  /// format.
  static func payload(
    catalog: SchemaCatalog?, tables: [TableRows], coders: inout [[RowCoder]?],
    change: CommittedChange? = nil, historyDroppedThrough: UInt64 = 0,
    lengthLimit: Int = Int(UInt32.max)
  ) -> ByteWriter {
    var writer = ByteWriter()
    writer.lengthLimit = lengthLimit
    encode(
      catalog: catalog, tables: tables, coders: &coders, change: change,
      historyDroppedThrough: historyDroppedThrough, into: &writer)
    return writer
  }

  /// Appends the payload ``payload(catalog:tables:coders:change:historyDroppedThrough:lengthLimit:)``
  /// makes to `writer`.
  static func encode(
    catalog: SchemaCatalog?, tables: [TableRows], coders: inout [[RowCoder]?],
    change: CommittedChange?, historyDroppedThrough: UInt64, into writer: inout ByteWriter
  ) {
    let history = change == nil ? 0 : historyFlag
    if let catalog {
      writer.append(UInt8(4) | history)
      catalog.encode(into: &writer, version: SnapshotFormat.integerWidthVersion)
    } else {
      writer.append(UInt8(0) | history)
    }
    writer.append(UInt32(tables.count))
    for part in tables {
      let table = part.table
      if coders.count <= part.entity {
        coders += Array(repeating: nil, count: part.entity + 1 - coders.count)
      }
      let rowCoders = coders[part.entity] ?? RowCoder.coders(of: table)
      coders[part.entity] = rowCoders
      let attributes = table.attributeColumns
      let relationships = table.relationshipColumns
      writer.append(UInt32(part.entity))
      writer.append(UInt64(table.rowCount))
      writer.append(UInt64(part.rows.count))
      for row in part.rows {
        writer.append(UInt64(row))
        let stamp = row < table.rowCount ? table.stamps[row] : 0
        writer.append(stamp)
        guard stamp & 1 == 1 else { continue }
        // The coders of the attribute columns, then those of the relationship columns.
        for (index, column) in attributes.enumerated() {
          rowCoders[index].encode(column, row, &writer)
        }
        for (index, column) in relationships.enumerated() {
          rowCoders[attributes.count + index].encode(column, row, &writer)
        }
      }
    }
    if let change {
      writer.append(historyDroppedThrough)
      change.encode(into: &writer)
    }
  }
}

/// Applies records to the tables of a version being recovered, which it owns alone.
struct JournalApplier {
  var catalog: SchemaCatalog
  var tables: [Table]
  /// Per entity (indexed by entity number, `nil` until its first record): its table's
  /// attribute and relationship columns, their row coders, and the bytes a row takes in all
  /// its columns (stamps included).
  private var layouts: [Layout?] = []
  /// Per entity (indexed by entity number, `nil` until needed): the destination entity index
  /// of each relationship slot (-1: unknown).
  private var destinations: [[Int]?] = []
  /// The most memory the records may add to the tables, and what they added so far: a
  /// hostile record naming a huge row count is refused instead of allocated.
  private let memoryBudget: Int
  private var committed = 0
  /// The rows with relationships the current record wrote (kept to reuse its storage).
  private var written: [(entity: Int, row: Int)] = []

  init(catalog: SchemaCatalog, tables: [Table], memoryBudget: Int) {
    self.catalog = catalog
    self.tables = tables
    self.memoryBudget = memoryBudget
  }

  /// Applies the tables of one payload, the record of version `number`; the save's change
  /// for the history (when the record carries one) is left for the caller to decode, at
  /// ``HistoryPart/offset``, or to skip when the history drops it anyway.
  ///
  /// - Returns: Where the record's history change starts and the newest version the history
  ///   no longer kept after it, or `nil` when the record carries none.
  /// - Throws: ``SnapshotError`` for an impossible payload (the caller reports it as a
  ///   ``JournalError``); the tables may then be partly changed.
  @discardableResult
  mutating func apply(_ reader: inout ByteReader, number: UInt64 = 0) throws -> HistoryPart? {
    let fullFlag = try reader.read(UInt8.self)
    let hasHistory = fullFlag & JournalRecord.historyFlag != 0
    let flag = fullFlag & ~JournalRecord.historyFlag
    switch flag {
    case 0: break
    case 1, 2, 3, 4:
      let layouts = [
        SnapshotFormat.lineageVersion, SnapshotFormat.physicalSchemaVersion,
        SnapshotFormat.codableShapeVersion, SnapshotFormat.integerWidthVersion,
      ]
      let layout = layouts[Int(flag) - 1]
      let grown = try SchemaCatalog.decode(from: &reader, version: layout)
      guard grown.entities.count >= catalog.entities.count,
        zip(grown.entities, catalog.entities).allSatisfy({
          $0.description.hasSameDefinition(as: $1.description)
        })
      else { throw reader.error("the record's catalog does not extend the store's") }
      for entity in grown.entities.dropFirst(tables.count) { tables.append(Table(entity: entity)) }
      catalog = grown
      destinations = []
    case _: throw reader.error("catalog flag \(fullFlag)")
    }
    let count = Int(try reader.read(UInt32.self))
    written.removeAll(keepingCapacity: true)
    for _ in 0..<count {
      let entity = Int(try reader.read(UInt32.self))
      guard entity < tables.count else { throw reader.error("entity \(entity) does not exist") }
      let table = tables[entity]
      let layout =
        entity < layouts.count ? layouts[entity] ?? layout(of: entity) : layout(of: entity)
      let rowCount = try reader.read(UInt64.self)
      guard rowCount <= UInt64(Int32.max) else { throw reader.error("row count \(rowCount)") }
      try reserve(growing: table, to: Int(rowCount), rowBytes: layout.rowBytes, reader: reader)
      table.grow(to: Int(rowCount))
      let rows = try reader.readCount(minimumSize: 12)
      let hasRelationships = !table.relationshipColumns.isEmpty
      for _ in 0..<rows {
        let rawRow = try reader.read(UInt64.self)
        guard rawRow < UInt64(table.rowCount) else {
          throw reader.error("row \(rawRow) is past the table")
        }
        let row = Int(rawRow)
        let stamp = try reader.read(UInt32.self)
        if table.stamps[row] & 1 == 1 { table.liveCount -= 1 }
        table.stamps[row] = stamp
        guard stamp & 1 == 1 else {
          for column in layout.columns { column.clear(row: row) }
          continue
        }
        table.liveCount += 1
        for index in layout.columns.indices {
          try layout.coders[index].decode(layout.columns[index], row, &reader)
        }
        if hasRelationships { written.append((entity, row)) }
      }
    }
    var history: HistoryPart?
    if hasHistory {
      let start = reader.position
      let dropped = try reader.read(UInt64.self)
      guard dropped <= number else {
        throw reader.error(
          "the history dropped through version \(dropped), past the record's \(number)",
          at: start)
      }
      history = HistoryPart(offset: reader.position, droppedThrough: dropped)
    } else {
      try reader.expectEnd()
    }
    for (entity, row) in written { try validateKeys(entity: entity, row: row, reader: reader) }
    return history
  }

  /// Where a record's change for the history lies, and what the history dropped after it.
  struct HistoryPart {
    /// The offset of the ``CommittedChange`` encoding in the record's payload; it runs to the
    /// payload's end.
    var offset: Int
    /// The newest version the history no longer kept once it recorded the save.
    var droppedThrough: UInt64
  }

  /// An entity's columns as records write them.
  private struct Layout {
    /// The table's attribute columns, then its relationship columns.
    var columns: [AnyColumn]
    /// The row coder of each column.
    var coders: [RowCoder]
    /// The bytes a row takes in all the columns, stamps included.
    var rowBytes: Int
  }

  /// The columns, row coders and row size of `entity`'s table, made once and kept.
  private mutating func layout(of entity: Int) -> Layout {
    let table = tables[entity]
    let columns = table.attributeColumns + table.relationshipColumns
    let layout = Layout(
      columns: columns, coders: RowCoder.coders(of: table),
      rowBytes: columns.reduce(table.stamps.elementStride) { $0 + $1.elementStride })
    if layouts.count <= entity {
      layouts += Array(repeating: nil, count: entity + 1 - layouts.count)
    }
    layouts[entity] = layout
    return layout
  }

  /// Counts the memory growing `table` (whose rows take `rowBytes` bytes) to `rowCount` rows
  /// takes (columns allocate whole chunks), refusing growth past the budget.
  private mutating func reserve(
    growing table: Table, to rowCount: Int, rowBytes: Int, reader: ByteReader
  ) throws {
    guard rowCount > table.rowCount else { return }
    let chunks = { (rows: Int) in (rows + AnyColumn.chunkMask) >> AnyColumn.chunkShift }
    committed += (chunks(rowCount) - chunks(table.rowCount)) << AnyColumn.chunkShift * rowBytes
    guard committed <= memoryBudget else {
      throw reader.error(
        "the records would add \(committed) bytes of tables, more than the \(memoryBudget) "
          + "a journal of this size may ask for")
    }
  }

  /// Every relationship key of `row` must name a row of its destination's hierarchy.
  private mutating func validateKeys(entity: Int, row: Int, reader: ByteReader) throws {
    let table = tables[entity]
    if destinations.count <= entity {
      destinations += Array(repeating: nil, count: entity + 1 - destinations.count)
    }
    let targets =
      destinations[entity]
      ?? table.entity.relationships.map { catalog.entity(named: $0.destination)?.index ?? -1 }
    destinations[entity] = targets
    for (slot, column) in table.relationshipColumns.enumerated() {
      let destination = targets[slot]
      func check(_ key: ObjectKey) throws {
        let target = Int(key.entity)
        guard target < tables.count, Int(key.row) < tables[target].rowCount,
          tables[target].entity.lineage.contains(destination)
        else {
          throw reader.error(
            "\(table.entity.name).\(table.entity.relationships[slot].name) of row \(row) "
              + "points at \(key)")
        }
      }
      if table.entity.relationships[slot].isToMany {
        // Read in place: the list is not copied into an array.
        try unsafeDowncast(column, to: KeyListColumn.self).withKeys(at: row) { keys in
          for key in keys { try check(key) }
        }
      } else if let key = unsafeDowncast(column, to: Column<ObjectKey?>.self)[row] {
        try check(key)
      }
    }
  }
}
