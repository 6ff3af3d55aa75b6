import Testing

@testable import ModelGraphCore

/// Hash indexes carried from version to version by small saves (a shared base with a small
/// overlay, folded as it grows), and the rows a save notes it wrote.
@Suite("Index: hash indexes carried across small saves")
struct HashIndexVersionTests {
  static let daysIndex = IndexDefinition(.hash, on: "days")

  /// The live rows of `table` whose days are `days`, ascending: the answer without an index.
  static func scan(_ table: Table, days: Int64) -> [Int32] {
    var rows: [Int32] = []
    let column = table.column(Fixture.days, as: Int64.self)
    table.forEachLiveRow { row in if column[row] == days { rows.append(Int32(row)) } }
    return rows
  }

  /// Checks the view of `tables[trip]` (over the committed version `committed`) against a scan.
  static func expectMatchesScan(
    store: Store, tables: [Table], committed: [Table], memo: IndexMemo? = nil,
    writtenRows: ((Int) -> [Int32]?)? = nil, days: ClosedRange<Int64>, _ comment: Comment
  ) throws {
    let resolver = IndexResolver(
      tables: tables, committedTables: committed,
      hasPendingChanges: tables[Fixture.trip] !== committed[Fixture.trip], memo: memo,
      writtenRows: writtenRows)
    let entity = store.catalog.entities[Fixture.trip]
    let view = try #require(resolver.view(Self.daysIndex, entity: entity))
    let table = tables[Fixture.trip]
    #expect(view.count == table.liveCount, comment)
    for value in days {
      let expected = scan(table, days: value)
      #expect(view.rows(equalTo: [.int(value)]) == expected, comment)
      #expect(view.count(equalTo: [.int(value)]) == expected.count, comment)
      #expect(view.exactCount(equalTo: .int(value)) == expected.count, comment)
    }
    let both = (scan(table, days: days.lowerBound) + scan(table, days: days.upperBound)).sorted()
    #expect(view.rows(equalTo: [.int(days.lowerBound), .int(days.upperBound)]) == both, comment)
  }

  @Test("a save past the noted bound leaves no note, and its index is carried by chunks")
  func largeSaveLeavesNoNote() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var live: [ObjectKey] = []
    for index in 0..<3_000 {
      live.append(session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 30)))
    }
    try session.save()
    let tables = store.version.tables
    try Self.expectMatchesScan(
      store: store, tables: tables, committed: tables, days: 0...29, "first version")
    // A small save notes its rows; a larger one than the bound notes none (the note lives as
    // long as the version), and the view carried over it still equals a scan.
    session.set(Int64(7), slot: Fixture.days, of: live[0])
    try session.save()
    #expect(store.version.tables[Fixture.trip].changeNote?.rows == [Int32(live[0].row)])
    for index in 0..<(TableChangeNote.largestNoted + 1) {
      _ = session.insert(entity: Fixture.trip, name: "b\(index)", days: Int64(index % 29))
    }
    session.delete(live[1])
    try session.save()
    #expect(store.version.tables[Fixture.trip].changeNote == nil)
    let after = store.version.tables
    try Self.expectMatchesScan(
      store: store, tables: after, committed: after, days: 0...29, "after the large save")
  }

  @Test("the committed view after each of many one-object saves equals a scan")
  func manySmallSaves() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var random = QueryRandom(seed: 41)
    var live: [ObjectKey] = []
    for index in 0..<3_000 {
      live.append(session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 30)))
    }
    try session.save()
    for step in 0..<300 {
      // One insert, one update, one delete, and every 25th save a burst past the fold bound.
      live.append(
        session.insert(
          entity: Fixture.trip, name: "n\(step)", days: Int64.random(in: 0..<30, using: &random)))
      let updated = live[Int.random(in: 0..<live.count, using: &random)]
      if session.contains(updated) {
        session.set(Int64.random(in: 0..<30, using: &random), slot: Fixture.days, of: updated)
      }
      session.delete(live[Int.random(in: 0..<live.count, using: &random)])
      if step % 25 == 0 {
        for _ in 0..<50 {
          let key = live[Int.random(in: 0..<live.count, using: &random)]
          if session.contains(key) { session.set(Int64(step % 30), slot: Fixture.days, of: key) }
        }
      }
      let previous = store.version.tables[Fixture.trip]
      try session.save()
      let current = store.version.tables[Fixture.trip]
      #expect(current.changeNote?.previous == previous.serial)
      #expect(
        IndexDelta<Int64>(from: previous, to: current, slot: Fixture.days).sameEntries(
          as: IndexDelta(comparingChunksOf: previous, to: current, slot: Fixture.days)))
      // Every seventh version nobody reads: the next one is carried from two versions back.
      guard step % 7 != 3 else { continue }
      let tables = store.version.tables
      try Self.expectMatchesScan(
        store: store, tables: tables, committed: tables, days: 0...29, "save \(step)")
    }
  }

  @Test("a session's pending changes laid over the carried view equal a scan")
  func pendingChanges() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    var random = QueryRandom(seed: 43)
    var live: [ObjectKey] = []
    for index in 0..<2_000 {
      live.append(writer.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 20)))
    }
    try writer.save()
    for round in 0..<40 {
      // A committed save, then pending changes of 1, 10 or 100 rows (past the fold bound).
      live.append(writer.insert(entity: Fixture.trip, name: "c\(round)", days: 3))
      try writer.save()
      let session = Session(store: store)
      for _ in 0..<[1, 10, 100][round % 3] {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
          live.append(
            session.insert(
              entity: Fixture.trip, name: "p", days: Int64.random(in: 0..<20, using: &random)))
        case 1:
          let key = live[Int.random(in: 0..<live.count, using: &random)]
          if session.contains(key) {
            session.set(Int64.random(in: 0..<20, using: &random), slot: Fixture.days, of: key)
          }
        default:
          session.delete(live[Int.random(in: 0..<live.count, using: &random)])
        }
      }
      var tables = session.base.tables
      tables[Fixture.trip] = session.table(Fixture.trip)
      let written = session.changes[Fixture.trip]?.writtenRows ?? []
      try Self.expectMatchesScan(
        store: store, tables: tables, committed: session.base.tables, memo: session.indexMemo,
        writtenRows: { _ in written }, days: 0...19, "round \(round), rows noted")
      try Self.expectMatchesScan(
        store: store, tables: tables, committed: session.base.tables, days: 0...19,
        "round \(round), chunks compared")
      session.rollback()
    }
  }

  @Test(
    "an overlay carried by random steps agrees with a model, and folds into a rebuilt index",
    arguments: [5 as UInt64, 6, 7])
  func overlayAgreesWithModel(seed: UInt64) throws {
    var random = QueryRandom(seed: seed)
    // The base: rows 0..<200 with keys row % 13; the model: each row's key now.
    var model: [Int32: Int64] = [:]
    var entries: [(key: Int64, row: Int32)] = []
    for row in Int32(0)..<200 {
      model[row] = Int64(row % 13)
      entries.append((Int64(row % 13), row))
    }
    let base = HashIndex<Int64>.build(entries: entries)
    let baseModel = model
    var overlay = HashOverlay<Int64>()
    for step in 0..<300 {
      var delta = IndexDelta<Int64>()
      var named = Set<Int32>()
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let row = Int32.random(in: 0..<260, using: &random)
        guard named.insert(row).inserted else { continue }
        if let old = model[row] { delta.removed.append((old, row)) }
        if Bool.random(using: &random) {
          let key = Int64.random(in: 0..<13, using: &random)
          delta.added.append((key, row))
          model[row] = key
        } else {
          model[row] = nil
        }
      }
      overlay = overlay.applying(delta)
      for row in Int32(0)..<260 {
        let expected: Int64?? = baseModel[row] == model[row] ? nil : .some(model[row])
        #expect(overlay.current(of: row) == expected, "step \(step), row \(row)")
      }
      #expect(base.count + overlay.countChange == model.count, "step \(step)")
      let view = HashIndexView.make(Self.daysIndex, base: base, overlay: overlay)
      for key in Int64(0)..<13 {
        let rows = model.filter { $0.value == key }.map(\.key).sorted()
        #expect(view.rows(equalTo: [.int(key)]) == rows, "step \(step), key \(key)")
        #expect(view.exactCount(equalTo: .int(key)) == rows.count, "step \(step), key \(key)")
      }
    }
    let view = HashIndexView.make(Self.daysIndex, base: base, overlay: overlay)
    #expect(overlay.count > HashOverlay<Int64>.foldBound, "the large overlay's path is covered")
    #expect(view.exactCount(equalTo: .string("not a number")) == nil)
    let folded = base.applying(overlay.delta)
    let rebuilt = HashIndex<Int64>.build(entries: model.map { ($0.value, $0.key) })
    #expect(folded.entries == rebuilt.entries && folded.count == rebuilt.count)
  }
}
