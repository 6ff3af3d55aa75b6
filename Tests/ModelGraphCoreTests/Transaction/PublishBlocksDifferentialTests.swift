import Testing

@testable import ModelGraphCore

@Suite("Publishing a table of several chunk blocks: small saves agree with a full copy")
struct PublishBlocksDifferentialTests {
  /// Trips enough for one block of 256 chunks and part of a second.
  private static let trips = (256 + 5) * (1 << AnyColumn.chunkShift)

  /// The (name, days) of every live trip, read from `version` row by row: what a full copy of
  /// the version holds.
  private static func contents(of version: StoreVersion) -> [Int: (String, Int64)] {
    let table = version.tables[Fixture.trip]
    let names = table.column(Fixture.name, as: String.self)
    let days = table.column(Fixture.days, as: Int64.self)
    var rows: [Int: (String, Int64)] = [:]
    table.forEachLiveRow { rows[$0] = (names[$0], days[$0]) }
    return rows
  }

  @Test("seeded small saves and rollbacks across blocks: every version keeps its own values")
  func smallSavesAcrossBlocks() throws {
    let store = try Fixture.makeStore()
    let loader = Session(store: store)
    var keys: [ObjectKey] = []
    keys.reserveCapacity(Self.trips)
    for index in 0..<Self.trips {
      keys.append(loader.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index)))
    }
    try loader.save()
    let loaded = store.version
    // A full copy of the loaded version, to compare with after every later save.
    let loadedContents = Self.contents(of: loaded)
    let loadedKeys = Set(keys)
    #expect(loadedContents.count == Self.trips)

    var random = QueryRandom(seed: 31)
    // The model: the values each saved version must hold at the rows the saves touched.
    var model: [ObjectKey: (String, Int64)] = [:]
    var versions: [(StoreVersion, [ObjectKey: (String, Int64)], Set<ObjectKey>)] = []
    var deleted: Set<ObjectKey> = []
    let session = Session(store: store)
    for step in 0..<120 {
      var pending = model
      var pendingDeleted = deleted
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        // Rows spread over every block, the last one included.
        let key = keys[Int.random(in: 0..<keys.count, using: &random)]
        // Only saved objects are deleted, so every deleted key names a published object.
        guard !pendingDeleted.contains(key), loadedKeys.contains(key) || model[key] != nil
        else { continue }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          let name = "n\(step)"
          let key = session.insert(entity: Fixture.trip, name: name, days: Int64(-step))
          pending[key] = (name, Int64(-step))
          keys.append(key)
        case 1:
          session.set(Int64(step), slot: Fixture.days, of: key)
          let name = pending[key]?.0 ?? session.get(String.self, slot: Fixture.name, of: key)
          pending[key] = (name, Int64(step))
        case 2:
          session.set("r\(step)", slot: Fixture.name, of: key)
          let days = pending[key]?.1 ?? session.get(Int64.self, slot: Fixture.days, of: key)
          pending[key] = ("r\(step)", days)
        default:
          session.delete(key)
          pending[key] = nil
          pendingDeleted.insert(key)
        }
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        let discarded = session.rollback()
        keys.removeAll { discarded.contains($0) }
        continue
      }
      try session.save()
      model = pending
      deleted = pendingDeleted
      versions.append((store.version, model, deleted))
    }
    #expect(versions.count > 60)
    for (number, (version, expected, gone)) in versions.enumerated() {
      for (key, value) in expected {
        #expect(version.contains(key), "version \(number)")
        #expect(version.get(String.self, slot: Fixture.name, of: key) == value.0)
        #expect(version.get(Int64.self, slot: Fixture.days, of: key) == value.1)
      }
      for key in gone { #expect(!version.contains(key), "version \(number)") }
      let live =
        Self.trips - gone.filter(loadedKeys.contains).count
        + expected.keys.filter { !loadedKeys.contains($0) }.count
      #expect(version.tables[Fixture.trip].liveCount == live, "version \(number)")
    }
    // The loaded version, published before every small save, still reads as its full copy.
    let now = Self.contents(of: loaded)
    #expect(now.count == loadedContents.count)
    var mismatches = 0
    for (row, value) in loadedContents where now[row]?.0 != value.0 || now[row]?.1 != value.1 {
      mismatches += 1
    }
    #expect(mismatches == 0)
    // The newest version reads as the loaded contents with the model laid over them.
    let newest = Self.contents(of: store.version)
    var expected = loadedContents
    for key in deleted { expected[Int(key.row)] = nil }
    for (key, value) in model { expected[Int(key.row)] = value }
    #expect(newest.count == expected.count)
    mismatches = 0
    for (row, value) in expected where newest[row]?.0 != value.0 || newest[row]?.1 != value.1 {
      mismatches += 1
    }
    #expect(mismatches == 0)
  }
}
