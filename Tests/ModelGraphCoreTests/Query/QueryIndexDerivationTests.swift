import Foundation
import Testing

@testable import ModelGraphCore

/// An index derived from an earlier version's index and the version diff equals one built
/// from scratch.
@Suite("Query engine: index derivation")
struct QueryIndexDerivationTests {
  @Test("derived ordered and hash indexes equal rebuilt ones after random saves")
  func derivedEqualsRebuilt() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var random = QueryRandom(seed: 17)
    var live: [ObjectKey] = []
    for index in 0..<6_000 {
      live.append(session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 50)))
    }
    try session.save()
    var previous = store.version.tables[Fixture.trip]
    var ordered = OrderedIndex<Int64>.build(
      column: previous.column(Fixture.days, as: Int64.self), stamps: previous.stamps)
    var hashed = HashIndex<Int64>.build(
      column: previous.column(Fixture.days, as: Int64.self), stamps: previous.stamps)
    for _ in 0..<5 {
      for _ in 0..<200 {
        let key = live[Int.random(in: 0..<live.count, using: &random)]
        if session.contains(key) {
          session.set(Int64.random(in: 0..<50, using: &random), slot: Fixture.days, of: key)
        }
      }
      for _ in 0..<100 {
        let position = Int.random(in: 0..<live.count, using: &random)
        session.delete(live[position])
      }
      for index in 0..<150 {
        live.append(
          session.insert(entity: Fixture.trip, name: "new\(index)", days: Int64(index % 7)))
      }
      try session.save()
      let current = store.version.tables[Fixture.trip]
      let delta = IndexDelta<Int64>(from: previous, to: current, slot: Fixture.days)
      ordered = ordered.applying(delta)
      hashed = hashed.applying(delta)
      let rebuilt = OrderedIndex<Int64>.build(
        column: current.column(Fixture.days, as: Int64.self), stamps: current.stamps)
      #expect(ordered.keys == rebuilt.keys && ordered.rows == rebuilt.rows)
      let rehashed = HashIndex<Int64>.build(
        column: current.column(Fixture.days, as: Int64.self), stamps: current.stamps)
      #expect(hashed.entries == rehashed.entries && hashed.count == rehashed.count)
      previous = current
    }
  }

  @Test("deltas chained across saves, laid over the first version's index, equal a rebuild")
  func chainedDeltas() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var random = QueryRandom(seed: 29)
    var live: [ObjectKey] = []
    for index in 0..<3_000 {
      live.append(session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 40)))
    }
    try session.save()
    var previous = store.version.tables[Fixture.trip]
    let base = OrderedIndex<Int64>.build(
      column: previous.column(Fixture.days, as: Int64.self), stamps: previous.stamps)
    var chained = IndexDelta<Int64>()
    for round in 0..<12 {
      // Rows updated twice, inserted then deleted, deleted then reused: across rounds too.
      for _ in 0..<40 {
        let key = live[Int.random(in: 0..<live.count, using: &random)]
        if session.contains(key) {
          session.set(Int64.random(in: 0..<40, using: &random), slot: Fixture.days, of: key)
        }
      }
      for _ in 0..<15 { session.delete(live[Int.random(in: 0..<live.count, using: &random)]) }
      for index in 0..<20 {
        live.append(
          session.insert(entity: Fixture.trip, name: "r\(round)-\(index)", days: Int64(index)))
      }
      try session.save()
      let current = store.version.tables[Fixture.trip]
      chained = chained.followed(by: IndexDelta(from: previous, to: current, slot: Fixture.days))
      let rebuilt = OrderedIndex<Int64>.build(
        column: current.column(Fixture.days, as: Int64.self), stamps: current.stamps)
      let carried = base.applying(chained)
      #expect(carried.keys == rebuilt.keys && carried.rows == rebuilt.rows, "round \(round)")
      #expect(Set(chained.removed.map(\.row)).count == chained.removed.count)
      #expect(Set(chained.added.map(\.row)).count == chained.added.count)
      #expect(chained.removed.map(\.row) == chained.removed.map(\.row).sorted())
      #expect(chained.added.map(\.row) == chained.added.map(\.row).sorted())
      previous = current
    }
  }

  @Test("deltas whose lists are not ordered by row chain as if they were")
  func chainedUnorderedDeltas() {
    var first = IndexDelta<Int64>()
    first.removed = [(5, 9), (1, 2), (7, 4)]
    first.added = [(6, 9), (8, 30), (2, 2)]
    var second = IndexDelta<Int64>()
    second.removed = [(8, 30), (3, 11), (6, 9)]
    second.added = [(4, 9), (0, 11)]
    let chained = first.followed(by: second)
    #expect(chained.removed.map(\.row) == [2, 4, 9, 11])
    #expect(chained.removed.map(\.key) == [1, 7, 5, 3])
    #expect(chained.added.map(\.row) == [2, 9, 11])
    #expect(chained.added.map(\.key) == [2, 4, 0])
  }

  @Test("a delta followed by one of later rows only, ordered or not, chains as one")
  func chainedAppendedDeltas() {
    var first = IndexDelta<Int64>()
    first.removed = [(1, 2), (7, 4)]
    first.added = [(2, 2), (3, 5)]
    var second = IndexDelta<Int64>()
    second.removed = [(9, 7)]
    second.added = [(6, 6), (4, 8)]
    let chained = first.followed(by: second)
    #expect(chained.removed.map(\.row) == [2, 4, 7])
    #expect(chained.removed.map(\.key) == [1, 7, 9])
    #expect(chained.added.map(\.row) == [2, 5, 6, 8])
    #expect(chained.added.map(\.key) == [2, 3, 6, 4])
    // The first delta's lists out of order: the same entries, ordered by row.
    first.removed.reverse()
    first.added.reverse()
    let unordered = first.followed(by: second)
    #expect(unordered.removed.map(\.row) == [2, 4, 7])
    #expect(unordered.added.map(\.row) == [2, 5, 6, 8])
    #expect(unordered.added.map(\.key) == [2, 3, 6, 4])
  }

  @Test("an ordered index with changes at its ends, between equal keys and twice in a row")
  func orderedIndexApplyingEdges() {
    let base = OrderedIndex<Int64>(
      sorted: [(1, 0), (2, 3), (2, 4), (2, 7), (5, 1), (9, 2)].map { (key: $0.0, row: Int32($0.1)) }
    )
    var delta = IndexDelta<Int64>()
    delta.removed = [(1, 0), (2, 4), (2, 7), (9, 2)]
    delta.added = [(0, 8), (2, 5), (2, 6), (10, 9), (9, 2)]
    let applied = base.applying(delta)
    #expect(applied.keys == [0, 2, 2, 2, 5, 9, 10])
    #expect(applied.rows == [8, 3, 5, 6, 1, 2, 9])
    var everything = IndexDelta<Int64>()
    everything.removed = zip(base.keys, base.rows).map { (key: $0, row: $1) }
    let emptied = base.applying(everything)
    #expect(emptied.count == 0)
  }

  @Test("a hash index of unique keys carried across saves, growing past its partitioning")
  func hashIndexGrowsAndRepartitions() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var live: [ObjectKey] = []
    for index in 0..<1_000 {
      live.append(session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index)))
    }
    try session.save()
    var previous = store.version.tables[Fixture.trip]
    var hashed = HashIndex<Int64>.build(
      column: previous.column(Fixture.days, as: Int64.self), stamps: previous.stamps)
    #expect(hashed.partitionsPerGroup == 1)
    var next = Int64(1_000)
    for round in 0..<3 {
      let inserts = round == 1 ? 70_000 : 300
      for _ in 0..<inserts {
        live.append(session.insert(entity: Fixture.trip, name: "n", days: next))
        next += 1
      }
      for position in stride(from: round, to: live.count, by: 97) { session.delete(live[position]) }
      session.set(Int64(-1), slot: Fixture.days, of: live[live.count - 1])
      try session.save()
      let current = store.version.tables[Fixture.trip]
      hashed = hashed.applying(IndexDelta(from: previous, to: current, slot: Fixture.days))
      let rebuilt = HashIndex<Int64>.build(
        column: current.column(Fixture.days, as: Int64.self), stamps: current.stamps)
      #expect(hashed.entries == rebuilt.entries && hashed.count == rebuilt.count)
      #expect(hashed.rows(-1).contains(Int32(live[live.count - 1].row)))
      previous = current
    }
    #expect(hashed.partitionsPerGroup > 1)
  }

  @Test("a save that writes one group of chunks: the groups both versions share are skipped")
  func sharedChunkGroups() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var keys: [ObjectKey] = []
    // 70,000 rows: two groups of 64 chunks of 1,024 rows.
    for index in 0..<70_000 {
      keys.append(session.insert(entity: Fixture.trip, name: "t", days: Int64(index % 100)))
    }
    try session.save()
    var previous = store.version.tables[Fixture.trip]
    var hashed = HashIndex<Int64>.build(
      column: previous.column(Fixture.days, as: Int64.self), stamps: previous.stamps)
    // Each round writes rows of one group only: the second group, then the first, then both
    // with a deletion and an insert.
    let rounds: [[Int]] = [[66_000, 69_999], [3, 65_535], [10, 67_000]]
    for (round, rows) in rounds.enumerated() {
      for row in rows { session.set(Int64(1_000 + round), slot: Fixture.days, of: keys[row]) }
      if round == 2 {
        session.delete(keys[20])
        keys.append(session.insert(entity: Fixture.trip, name: "late", days: 7))
      }
      try session.save()
      let current = store.version.tables[Fixture.trip]
      let delta = IndexDelta<Int64>(from: previous, to: current, slot: Fixture.days)
      let changedRows = Set(delta.added.map(\.row)).union(delta.removed.map(\.row))
      var expected = Set(rows.map { Int32($0) })
      if round == 2 { expected.formUnion([20, Int32(keys[keys.count - 1].row)]) }
      #expect(changedRows == expected, "round \(round)")
      hashed = hashed.applying(delta)
      let rebuilt = HashIndex<Int64>.build(
        column: current.column(Fixture.days, as: Int64.self), stamps: current.stamps)
      #expect(hashed.entries == rebuilt.entries && hashed.count == rebuilt.count)
      previous = current
    }
  }

  @Test("versions that share every chunk differ in nothing")
  func sharedChunks() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    for index in 0..<10_000 { _ = session.insert(entity: Fixture.trip, name: "t\(index)", days: 1) }
    try session.save()
    let table = store.version.tables[Fixture.trip]
    #expect(IndexDelta<Int64>(from: table, to: table.copy(), slot: Fixture.days).isEmpty)
  }
}
