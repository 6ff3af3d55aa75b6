import Testing

@testable import ModelGraphCore

@Suite("Publishing: a save shares the columns it did not write with the version before")
struct PublishSharingTests {
  @Test("a save that writes one attribute publishes only that column anew")
  func unwrittenColumnsAreReused() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let key = writer.insert(entity: Fixture.trip, name: "Paris", days: 3)
    try writer.save()
    let before = store.version.tables[Fixture.trip]

    let editor = Session(store: store)
    editor.set(Int64(4), slot: Fixture.days, of: key)
    try editor.save()
    let after = store.version.tables[Fixture.trip]

    #expect(after !== before)
    #expect(after.attributeColumns[Fixture.name] === before.attributeColumns[Fixture.name])
    #expect(after.attributeColumns[Fixture.note] === before.attributeColumns[Fixture.note])
    #expect(after.attributeColumns[Fixture.days] !== before.attributeColumns[Fixture.days])
    #expect(after.stamps === before.stamps)
    #expect(before.column(Fixture.days, as: Int64.self)[Int(key.row)] == 3)
    #expect(after.column(Fixture.days, as: Int64.self)[Int(key.row)] == 4)
  }

  @Test("writing a shared column after the save leaves both published versions as they were")
  func laterWritesCopy() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let key = session.insert(entity: Fixture.trip, name: "Paris", days: 3)
    try session.save()
    session.set(Int64(4), slot: Fixture.days, of: key)
    try session.save()
    let first = store.version

    // Written by the same session after both saves: the name column it never wrote before is
    // shared by the two versions and the working table.
    session.set("Lyon", slot: Fixture.name, of: key)
    session.set(Int64(5), slot: Fixture.days, of: key)
    #expect(first.get(String.self, slot: Fixture.name, of: key) == "Paris")
    #expect(first.get(Int64.self, slot: Fixture.days, of: key) == 4)
    try session.save()
    #expect(first.get(String.self, slot: Fixture.name, of: key) == "Paris")
    #expect(store.version.get(String.self, slot: Fixture.name, of: key) == "Lyon")
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: key) == 5)
  }

  @Test("a save that deletes copies every column, and the version before keeps the object")
  func deletionCopies() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let keep = writer.insert(entity: Fixture.trip, name: "Keep", days: 1)
    let drop = writer.insert(entity: Fixture.trip, name: "Drop", days: 2)
    try writer.save()
    let before = store.version

    let session = Session(store: store)
    session.delete(drop)
    try session.save()
    #expect(before.contains(drop))
    #expect(before.get(String.self, slot: Fixture.name, of: drop) == "Drop")
    #expect(!store.version.contains(drop))
    #expect(store.version.get(String.self, slot: Fixture.name, of: keep) == "Keep")
    #expect(
      store.version.tables[Fixture.trip].attributeColumns[Fixture.name]
        !== before.tables[Fixture.trip].attributeColumns[Fixture.name])
  }

  @Test("random saves through two sessions agree with a plain model of every version")
  func differential() throws {
    let store = try Fixture.makeStore()
    let sessions = [Session(store: store), Session(store: store)]
    var generator = SystemRandomNumberGenerator()
    var seed = UInt64.random(in: 0...UInt64.max, using: &generator)
    let start = seed
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    // The model: each key's (name, days) in the latest version, and every version kept.
    var model: [ObjectKey: (String, Int64)] = [:]
    var versions: [(StoreVersion, [ObjectKey: (String, Int64)])] = []
    for step in 0..<300 {
      let session = sessions[next(2)]
      session.refreshIfClean()
      var pending = model
      for _ in 0..<(1 + next(3)) {
        let keys = Array(pending.keys).sorted { $0.row < $1.row }
        switch keys.isEmpty ? 0 : next(4) {
        case 0:
          let name = "n\(step)"
          let key = session.insert(entity: Fixture.trip, name: name, days: Int64(step))
          pending[key] = (name, Int64(step))
        case 1:
          let key = keys[next(keys.count)]
          session.set(Int64(-step), slot: Fixture.days, of: key)
          pending[key]!.1 = Int64(-step)
        case 2:
          let key = keys[next(keys.count)]
          session.set("r\(step)", slot: Fixture.name, of: key)
          pending[key]!.0 = "r\(step)"
        default:
          let key = keys[next(keys.count)]
          session.delete(key)
          pending[key] = nil
        }
      }
      try session.save()
      model = pending
      versions.append((store.version, model))
    }
    for (version, expected) in versions {
      #expect(version.tables[Fixture.trip].liveCount == expected.count, "seed \(start)")
      for (key, value) in expected {
        #expect(version.contains(key), "seed \(start)")
        #expect(version.get(String.self, slot: Fixture.name, of: key) == value.0, "seed \(start)")
        #expect(version.get(Int64.self, slot: Fixture.days, of: key) == value.1, "seed \(start)")
      }
    }
  }
}
