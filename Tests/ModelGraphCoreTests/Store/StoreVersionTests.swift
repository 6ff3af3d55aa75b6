import Testing

@testable import ModelGraphCore

@Suite("StoreVersion: an immutable committed state")
struct StoreVersionTests {
  @Test("a version kept by a reader is unaffected by later saves, across chunks")
  func keptVersionUnchanged() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let count = (1 << AnyColumn.chunkShift) + 100
    let keys = (0..<count).map {
      writer.insert(entity: Fixture.trip, name: "t\($0)", days: Int64($0))
    }
    try writer.save()

    let kept = store.version
    let session = Session(store: store)
    let touched = [
      0, 1, count / 2, (1 << AnyColumn.chunkShift) - 1, 1 << AnyColumn.chunkShift, count - 1,
    ]
    for index in touched {
      session.set("changed", slot: Fixture.name, of: keys[index])
      session.set(Int64(-1), slot: Fixture.days, of: keys[index])
    }
    session.delete(keys[7])
    session.delete(keys[count - 2])
    for index in 0..<50 { _ = session.insert(entity: Fixture.trip, name: "new\(index)") }
    try session.save()

    #expect(store.version.number == kept.number + 1)
    #expect(kept.tables[Fixture.trip].liveCount == count)
    #expect(kept.count(of: Fixture.trip, deep: true) == count)
    for index in touched + [7, count - 2] {
      #expect(kept.contains(keys[index]))
      #expect(kept.get(String.self, slot: Fixture.name, of: keys[index]) == "t\(index)")
      #expect(kept.get(Int64.self, slot: Fixture.days, of: keys[index]) == Int64(index))
    }
    let latest = store.version
    #expect(latest.get(String.self, slot: Fixture.name, of: keys[count - 1]) == "changed")
    #expect(!latest.contains(keys[7]))
    #expect(latest.tables[Fixture.trip].liveCount == count - 2 + 50)
  }

  @Test("a session's unsaved writes never reach the committed version it started from")
  func workingCopyIsolated() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let key = writer.insert(entity: Fixture.trip, name: "a", days: 1)
    try writer.save()

    let version = store.version
    let session = Session(store: store)
    session.set("b", slot: Fixture.name, of: key)
    _ = session.insert(entity: Fixture.trip, name: "c")
    #expect(version.get(String.self, slot: Fixture.name, of: key) == "a")
    #expect(version.tables[Fixture.trip].liveCount == 1)
    session.rollback()
    #expect(session.get(String.self, slot: Fixture.name, of: key) == "a")
  }

  @Test("count(of:deep:) counts an entity alone or with its descendants")
  func counts() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    for index in 0..<3 { _ = session.insert(entity: Fixture.trip, name: "t\(index)") }
    for index in 0..<2 { _ = session.insert(entity: Fixture.business, name: "b\(index)") }
    _ = session.insert(entity: Fixture.personal, name: "p")
    try session.save()
    let version = store.version
    #expect(version.count(of: Fixture.trip, deep: true) == 6)
    #expect(version.count(of: Fixture.trip, deep: false) == 3)
    #expect(version.count(of: Fixture.business, deep: true) == 2)
    #expect(version.count(of: Fixture.personal, deep: false) == 1)
  }

  @Test("registering an entity keeps the version number and adds an empty table")
  func registrationKeepsNumber() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    _ = session.insert(entity: Fixture.trip, name: "t")
    try session.save()
    let before = store.version
    try store.register([
      EntityDescription(
        name: "Cruise", parent: "Trip",
        attributes: [AttributeDescription(name: "ship", valueType: .string)])
    ])
    let after = store.version
    #expect(after.number == before.number)
    #expect(after.tables.count == before.tables.count + 1)
    #expect(after.tables.last?.liveCount == 0)
    #expect(before.tables.count == 3)
    #expect(after.catalog.subtree(of: Fixture.trip).contains(3))
  }
}
