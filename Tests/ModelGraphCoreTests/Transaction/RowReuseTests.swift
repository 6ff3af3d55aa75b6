import Testing

@testable import ModelGraphCore

@Suite("Row reuse and generations")
struct RowReuseTests {
  @Test("a row freed by a saved delete is reused with the next generation")
  func reuseBumpsGeneration() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let old = session.insert(entity: Fixture.trip, name: "old")
    try session.save()
    session.delete(old)
    try session.save()

    let new = session.insert(entity: Fixture.trip, name: "new")
    #expect(new.row == old.row)
    #expect(new.generation == old.generation + 1)
    #expect(!session.contains(old))
    #expect(session.contains(new))
    try session.save()
    #expect(!store.version.contains(old))
    #expect(store.version.contains(new))
    #expect(!Session(store: store).contains(old))
    #expect(store.version.get(String.self, slot: Fixture.name, of: new) == "new")
  }

  @Test("rows freed by one save are reused lowest first")
  func reuseAscending() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let keys = (0..<60).map { session.insert(entity: Fixture.trip, name: "t\($0)") }
    try session.save()
    // Every third key, deleted in a scrambled order.
    let victims = stride(from: 0, to: 60, by: 3).map { keys[($0 * 7) % 60] }
    for key in victims { session.delete(key) }
    try session.save()
    let reused = (0..<victims.count).map { session.insert(entity: Fixture.trip, name: "n\($0)") }
    #expect(reused.map(\.row) == victims.map(\.row).sorted())
    try session.save()
    for (index, key) in reused.enumerated() {
      #expect(store.version.get(String.self, slot: Fixture.name, of: key) == "n\(index)")
    }
  }

  @Test("a deleted row's values are cleared before reuse")
  func valuesCleared() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let old = session.insert(entity: Fixture.trip, name: "old", days: 9)
    session.set("note" as String?, slot: Fixture.note, of: old)
    try session.save()
    session.delete(old)
    try session.save()

    let new = session.insert(entity: Fixture.trip)
    #expect(new.row == old.row)
    #expect(session.get(String?.self, slot: Fixture.note, of: new) == nil)
    #expect(session.get(Int64.self, slot: Fixture.days, of: new) == 0)
    #expect(session.get(String.self, slot: Fixture.name, of: new) == "")
  }

  @Test("rows of discarded inserts come back with a new generation", arguments: [false, true])
  func discardedRowsReused(byRollback: Bool) throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let discarded = session.insert(entity: Fixture.trip, name: "discarded")
    if byRollback {
      session.rollback()
    } else {
      session.delete(discarded)
      try session.save()
    }
    let next = session.insert(entity: Fixture.trip, name: "next")
    #expect(next != discarded)
    #expect(next.row != discarded.row || next.generation != discarded.generation)
    #expect(!session.contains(discarded))
    try session.save()
    #expect(!store.version.contains(discarded))
    #expect(store.version.contains(next))
  }

  @Test("many delete-and-insert cycles never make an old key live again")
  func manyCycles() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var retired: [ObjectKey] = []
    var live = (0..<4).map { session.insert(entity: Fixture.business, name: "v\($0)") }
    try session.save()
    for cycle in 0..<20 {
      let victim = live.remove(at: cycle % live.count)
      session.delete(victim)
      retired.append(victim)
      try session.save()
      live.append(session.insert(entity: Fixture.business, name: "c\(cycle)"))
      try session.save()
    }
    let version = store.version
    for key in retired { #expect(!version.contains(key)) }
    for key in live { #expect(version.contains(key)) }
    #expect((retired + live).allSatisfy { $0.row < 4 })
    #expect(version.tables[Fixture.business].liveCount == 4)
  }
  @Test("a small save takes a new row while freed rows are under a quarter of the table")
  func freedRowsWaitForAQuarter() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let keys = (0..<63).map { session.insert(entity: Fixture.trip, name: "t\($0)") }
    try session.save()
    // 15 freed of 63 rows: fewer than a quarter, so one insert appends after the last row.
    for key in keys[..<15] { session.delete(key) }
    try session.save()
    let appended = session.insert(entity: Fixture.trip, name: "appended")
    try session.save()
    #expect(appended.row == 63 && appended.generation == 0)
    // One more freed row makes 16 of 64: a quarter; from then on freed rows come first (the
    // last save's first, each save's lowest first) until none is left.
    session.delete(keys[15])
    try session.save()
    var reused: [ObjectKey] = []
    for index in 0..<16 {
      reused.append(session.insert(entity: Fixture.trip, name: "r\(index)"))
      try session.save()
    }
    #expect(reused.map(\.row) == [keys[15].row] + keys[..<15].map(\.row))
    #expect(reused.allSatisfy { $0.generation == 1 })
    let next = session.insert(entity: Fixture.trip, name: "next")
    #expect(next.row == 64)
  }

  @Test("a save inserting many objects reuses freed rows however few they are")
  func bulkInsertReuses() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let keys = (0..<1_000).map { session.insert(entity: Fixture.trip, name: "t\($0)") }
    try session.save()
    for key in keys[..<10] { session.delete(key) }
    try session.save()
    let inserted = (0..<200).map { session.insert(entity: Fixture.trip, name: "n\($0)") }
    try session.save()
    let freed = Set(keys[..<10].map(\.row))
    #expect(Set(inserted.map(\.row)).isSuperset(of: freed))
    #expect(store.version.tables[Fixture.trip].liveCount == 1_190)
  }
  @Test("rows a save reserved and did not use are handed out again lowest first")
  func returnedRowsLowestFirst() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    // 40 inserts reserve 1 + 2 + 4 + 8 + 16 + 32 rows; the save gives 23 back.
    _ = (0..<40).map { session.insert(entity: Fixture.trip, name: "t\($0)") }
    try session.save()
    var rows: [Int] = []
    for index in 0..<3 {
      rows.append(Int(session.insert(entity: Fixture.trip, name: "n\(index)").row))
      try session.save()
    }
    #expect(rows == [40, 41, 42])
    #expect(store.version.tables[Fixture.trip].rowCount == 43)
  }
}
