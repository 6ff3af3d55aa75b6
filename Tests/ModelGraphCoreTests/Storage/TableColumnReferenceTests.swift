import Testing

@testable import ModelGraphCore

/// A table reads attribute values through unretained references to its columns
/// (``Table/value(_:row:as:)``), taken from its own column list: they must follow every change
/// of that list, and a copy must read its own columns, never those of the table it was copied
/// from.
@Suite("Storage: a table's unretained column references follow its columns")
struct TableColumnReferenceTests {
  /// A session whose trip table was read, with `count` trips saved.
  static func savedSession(count: Int) throws -> (Store, Session, [ObjectKey]) {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let keys = (0..<count).map {
      session.insert(entity: Fixture.trip, name: "t\($0)", days: Int64($0))
    }
    try session.save()
    return (store, session, keys)
  }

  @Test("a value read through the references is the column's, in a new table and its copy")
  func readsOwnColumns() throws {
    let (store, session, keys) = try Self.savedSession(count: 3)
    let committed = store.version.tables[Fixture.trip]
    let copy = committed.copy()
    copy.column(Fixture.days, as: Int64.self)[Int(keys[1].row)] = 41
    #expect(copy.value(Fixture.days, row: Int(keys[1].row), as: Int64.self) == 41)
    #expect(committed.value(Fixture.days, row: Int(keys[1].row), as: Int64.self) == 1)
    #expect(copy.value(Fixture.name, row: Int(keys[2].row), as: String.self) == "t2")
    _ = session
  }

  @Test("replacing a column of the list is what the references read next")
  func followsReplacedColumn() throws {
    let (store, _, keys) = try Self.savedSession(count: 2)
    let table = store.version.tables[Fixture.trip].copy()
    let replacement = Column<Int64>()
    replacement.grow(to: table.rowCount)
    replacement[Int(keys[0].row)] = 7
    table.attributeColumns[Fixture.days] = replacement
    #expect(table.value(Fixture.days, row: Int(keys[0].row), as: Int64.self) == 7)
    table.attributeColumns = table.attributeColumns.map { $0.copy() }
    #expect(table.value(Fixture.days, row: Int(keys[0].row), as: Int64.self) == 7)
    #expect(table.value(Fixture.name, row: Int(keys[0].row), as: String.self) == "t0")
  }

  @Test("a working table reset to a newer version reads that version's values")
  func followsReset() throws {
    let (store, session, keys) = try Self.savedSession(count: 4)
    let working = session.table(Fixture.trip)
    let other = Session(store: store)
    other.set(Int64(99), slot: Fixture.days, of: keys[3])
    other.set("renamed", slot: Fixture.name, of: keys[0])
    try other.save()
    session.refreshIfClean()
    #expect(session.table(Fixture.trip) === working)
    #expect(working.value(Fixture.days, row: Int(keys[3].row), as: Int64.self) == 99)
    #expect(working.value(Fixture.name, row: Int(keys[0].row), as: String.self) == "renamed")
    #expect(working.value(Fixture.days, row: Int(keys[1].row), as: Int64.self) == 1)
  }
}
