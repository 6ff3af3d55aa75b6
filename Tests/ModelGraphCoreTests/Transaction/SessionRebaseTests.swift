import Dispatch
import Testing

@testable import ModelGraphCore

@Suite("Two sessions saving: the rebase path")
struct SessionRebaseTests {
  @Test("inserts and updates of different objects from two sessions both land")
  func differentObjects() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let a = setup.insert(entity: Fixture.trip, name: "a", days: 1)
    let b = setup.insert(entity: Fixture.business, name: "b", days: 1)
    try setup.save()

    let first = Session(store: store)
    let second = Session(store: store)
    first.set(Int64(10), slot: Fixture.days, of: a)
    let fromFirst = first.insert(entity: Fixture.personal, name: "from-first")
    second.set(Int64(20), slot: Fixture.days, of: b)
    second.set("Globex", slot: Fixture.company, of: b)
    let fromSecond = second.insert(entity: Fixture.trip, name: "from-second")
    try first.save()
    try second.save()

    let version = store.version
    #expect(version.number == 3)
    #expect(version.get(Int64.self, slot: Fixture.days, of: a) == 10)
    #expect(version.get(Int64.self, slot: Fixture.days, of: b) == 20)
    #expect(version.get(String.self, slot: Fixture.company, of: b) == "Globex")
    #expect(version.contains(fromFirst))
    #expect(version.contains(fromSecond))
    #expect(version.names(of: Fixture.trip) == ["a", "from-second"])
    #expect(version.count(of: Fixture.trip, deep: true) == 4)
    #expect(second.contains(fromFirst))
  }

  @Test("writes to different attributes of one object both land; the same one is a conflict")
  func sameObjectDifferentAttributes() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let key = setup.insert(entity: Fixture.trip, name: "original", days: 1)
    try setup.save()

    let first = Session(store: store)
    let second = Session(store: store)
    first.set("renamed", slot: Fixture.name, of: key)
    first.set("first" as String?, slot: Fixture.note, of: key)
    second.set(Int64(5), slot: Fixture.days, of: key)
    second.set("second" as String?, slot: Fixture.note, of: key)
    try first.save()
    let refused = #expect(throws: ConflictError.self) { try second.save() }
    #expect(
      refused?.conflicts == [
        Conflict(
          .attribute(slot: Fixture.note), key: key, mine: .string("second"),
          theirs: .string("first"))
      ])
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: key) == 1)
    try second.save(resolving: { _ in .keepMine })

    let version = store.version
    #expect(version.get(String.self, slot: Fixture.name, of: key) == "renamed")
    #expect(version.get(Int64.self, slot: Fixture.days, of: key) == 5)
    #expect(version.get(String?.self, slot: Fixture.note, of: key) == "second")
  }

  @Test("two sessions writing the same new value to one attribute conflict: no increment is lost")
  func sameValueFromSameReading() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let key = setup.insert(entity: Fixture.trip, name: "counter", days: 1)
    try setup.save()

    let first = Session(store: store)
    let second = Session(store: store)
    first.set(Int64(2), slot: Fixture.days, of: key)
    second.set(Int64(2), slot: Fixture.days, of: key)
    try first.save()
    let refused = #expect(throws: ConflictError.self) { try second.save() }
    #expect(
      refused?.conflicts == [
        Conflict(.attribute(slot: Fixture.days), key: key, mine: .int(2), theirs: .int(2))
      ])
    #expect(store.version.number == 2)
  }

  @Test("an update to an object another session deleted is a conflict; store wins drops it")
  func updateOfDeletedObject() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let key = setup.insert(entity: Fixture.trip, name: "doomed", days: 1)
    try setup.save()

    let deleter = Session(store: store)
    let updater = Session(store: store)
    deleter.delete(key)
    updater.set(Int64(99), slot: Fixture.days, of: key)
    try deleter.save()
    let refused = #expect(throws: ConflictError.self) { try updater.save() }
    #expect(refused?.conflicts == [Conflict(.changedDeletedObject, key: key)])
    try updater.save(resolving: { _ in .keepStore })

    #expect(!store.version.contains(key))
    #expect(store.version.tables[Fixture.trip].liveCount == 0)
  }

  @Test("two sessions deleting the same object free its row once")
  func doubleDeleteFreesOnce() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let key = setup.insert(entity: Fixture.trip, name: "shared")
    try setup.save()

    let first = Session(store: store)
    let second = Session(store: store)
    first.delete(key)
    second.delete(key)
    #expect(try first.save() == [key])
    #expect(try second.save().isEmpty)
    #expect(store.version.tables[Fixture.trip].liveCount == 0)

    let session = Session(store: store)
    let x = session.insert(entity: Fixture.trip, name: "x")
    let y = session.insert(entity: Fixture.trip, name: "y")
    #expect(x.row != y.row)
    try session.save()
    #expect(store.version.names(of: Fixture.trip) == ["x", "y"])
  }

  @Test("an insert never takes a row whose object the session still sees, freed by a newer save")
  func insertSkipsRowStillSeen() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let old = setup.insert(entity: Fixture.trip, name: "old")
    try setup.save()

    let stale = Session(store: store)
    #expect(stale.contains(old))
    let deleter = Session(store: store)
    deleter.delete(old)
    try deleter.save()

    let new = stale.insert(entity: Fixture.trip, name: "new")
    #expect(new.row != old.row)
    #expect(stale.contains(old))
    #expect(
      stale.table(Fixture.trip).value(Fixture.name, row: Int(old.row), as: String.self) == "old")
    try stale.save()
    #expect(store.version.names(of: Fixture.trip) == ["new"])

    // The skipped row went back to the store: later inserts reuse it.
    let later = Session(store: store)
    let keys = (0..<4).map { later.insert(entity: Fixture.trip, name: "later \($0)") }
    #expect(keys.contains { $0.row == old.row && $0.generation == old.generation + 1 })
  }

  @Test("a stale delete does not remove the new object that reused the row")
  func staleDeleteSparesNewObject() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let old = setup.insert(entity: Fixture.trip, name: "old")
    try setup.save()

    let stale = Session(store: store)
    stale.delete(old)
    let other = Session(store: store)
    other.delete(old)
    try other.save()
    let reuse = Session(store: store)
    let new = reuse.insert(entity: Fixture.trip, name: "new")
    try reuse.save()
    #expect(new.row == old.row)
    #expect(new.generation != old.generation)

    try stale.save()
    #expect(store.version.contains(new))
    #expect(store.version.names(of: Fixture.trip) == ["new"])
  }

  @Test("sessions saving concurrently from two threads lose nothing")
  func concurrentSaves() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let counters = [
      setup.insert(entity: Fixture.trip, name: "counter-0"),
      setup.insert(entity: Fixture.trip, name: "counter-1"),
    ]
    try setup.save()
    let rounds = 200

    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      let session = Session(store: store)
      for round in 0..<rounds {
        _ = session.insert(
          entity: worker == 0 ? Fixture.business : Fixture.personal, name: "w\(worker)-\(round)")
        session.set(Int64(round + 1), slot: Fixture.days, of: counters[worker])
        #expect(throws: Never.self) { try session.save() }
      }
    }

    let version = store.version
    #expect(version.number == UInt64(1 + 2 * rounds))
    #expect(version.count(of: Fixture.business, deep: false) == rounds)
    #expect(version.count(of: Fixture.personal, deep: false) == rounds)
    #expect(version.get(Int64.self, slot: Fixture.days, of: counters[0]) == Int64(rounds))
    #expect(version.get(Int64.self, slot: Fixture.days, of: counters[1]) == Int64(rounds))
    let names = version.names(of: Fixture.business) + version.names(of: Fixture.personal)
    #expect(Set(names).count == 2 * rounds)
  }
}
