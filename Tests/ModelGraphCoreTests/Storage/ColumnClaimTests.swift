import Dispatch
import Testing

@testable import ModelGraphCore

/// Appending in place: a working column claims the rows past its count of the last chunk it
/// shares with a published version, instead of copying that chunk; only one column at a time
/// holds the claim, and every other one copies the rows it sees.
@Suite("Column: appending in place to a shared last chunk")
struct ColumnClaimTests {
  private static let chunk = 1 << AnyColumn.chunkShift

  /// A published (frozen) column of `count` rows holding `row * 10`.
  private static func published(_ count: Int) -> Column<Int64> {
    let column = Column<Int64>()
    column.grow(to: count)
    for row in 0..<count { column[row] = Int64(row * 10) }
    return frozenCopy(of: column)
  }

  private static func copy(of column: Column<Int64>) -> Column<Int64> {
    unsafeDowncast(column.copy(), to: Column<Int64>.self)
  }

  /// What a save publishes: a frozen copy of the working column.
  private static func frozenCopy(of column: Column<Int64>) -> Column<Int64> {
    let copy = copy(of: column)
    copy.freeze()
    return copy
  }

  private static func lastChunk(_ column: Column<Int64>) -> UnsafeRawPointer {
    column.chunkStorage((column.count - 1) >> AnyColumn.chunkShift)
  }

  @Test("the first copy to append claims the shared chunk; a second one copies it")
  func oneClaimAtATime() {
    let version = Self.published(100)
    let first = Self.copy(of: version)
    let second = Self.copy(of: version)
    first.append(-1)
    second.append(-2)
    #expect(Self.lastChunk(first) == Self.lastChunk(version))
    #expect(Self.lastChunk(second) != Self.lastChunk(version))
    #expect(first[100] == -1 && second[100] == -2)
    #expect(version.count == 100 && (0..<100).allSatisfy { version[$0] == Int64($0 * 10) })
    #expect((0..<100).allSatisfy { first[$0] == Int64($0 * 10) && second[$0] == Int64($0 * 10) })
  }

  @Test("after each save the working column appends in place again; every version keeps its rows")
  func savesInARow() {
    var versions = [Self.published(10)]
    let working = Self.copy(of: versions[0])
    for step in 0..<20 {
      working.append(Int64(1_000 + step))
      #expect(Self.lastChunk(working) == Self.lastChunk(versions[0]), "step \(step)")
      versions.append(Self.frozenCopy(of: working))
    }
    for (index, version) in versions.enumerated() {
      #expect(version.count == 10 + index)
      #expect((0..<10).allSatisfy { version[$0] == Int64($0 * 10) })
      #expect((0..<index).allSatisfy { version[10 + $0] == Int64(1_000 + $0) })
    }
    // An older version's copy finds the rows past its count taken: it copies the chunk.
    let stale = Self.copy(of: versions[3])
    stale.append(-3)
    #expect(Self.lastChunk(stale) != Self.lastChunk(versions[3]))
    #expect(stale[13] == -3 && versions[20][13] == 1_003)
  }

  @Test("a write below the claimed rows copies the chunk, and the chunk can be claimed again")
  func writeBelowTheClaim() {
    let version = Self.published(50)
    let working = Self.copy(of: version)
    working.append(7)
    working[3] = -30
    #expect(Self.lastChunk(working) != Self.lastChunk(version))
    #expect(working[50] == 7 && working[3] == -30 && version[3] == 30)
    // The copy took the row appended in place; the chunk got its placeholder back.
    let other = Self.copy(of: version)
    other.grow(to: 51)
    #expect(Self.lastChunk(other) == Self.lastChunk(version))
    #expect(other[50] == 0)
    other[50] = 8
    #expect(other[50] == 8 && working[50] == 7)
  }

  @Test("a column dropped with a claim (a rollback) gives the rows back, holding the placeholder")
  func dropWithAClaim() {
    let version = Self.published(30)
    do {
      let working = Self.copy(of: version)
      working.append(5)
      working.append(6)
    }
    let next = Self.copy(of: version)
    next.grow(to: 32)
    #expect(Self.lastChunk(next) == Self.lastChunk(version))
    #expect(next[30] == 0 && next[31] == 0 && version.count == 30)
  }

  @Test("a write below a claim held past the chunk's end gives back only that chunk's rows")
  func writeBelowAClaimPastTheChunk() {
    let version = Self.published(Self.chunk - 2)
    let working = Self.copy(of: version)
    // Two rows fill the claimed chunk exactly; the third starts a new chunk, keeping the claim.
    for value in 1...3 { working.append(Int64(value)) }
    working[0] = -1
    #expect(working[Self.chunk - 2] == 1 && working[Self.chunk - 1] == 2)
    #expect(working[Self.chunk] == 3 && working[0] == -1 && version[0] == 0)
    let other = Self.copy(of: version)
    other.grow(to: Self.chunk)
    #expect(Self.lastChunk(other) == Self.lastChunk(version))
    #expect(other[Self.chunk - 2] == 0 && other[Self.chunk - 1] == 0)
  }

  @Test("growing past the shared chunk ends the claim and gives the rows between the placeholder")
  func growAcrossChunks() {
    let version = Self.published(Self.chunk - 2)
    let working = Self.copy(of: version)
    working.append(1)
    working.grow(to: Self.chunk + 5)
    working[Self.chunk + 4] = 2
    #expect(working[Self.chunk - 2] == 1 && working[Self.chunk - 1] == 0)
    #expect(working[Self.chunk + 4] == 2 && working[Self.chunk] == 0)
    // The old chunk was released full: a copy of the version cannot claim it.
    let other = Self.copy(of: version)
    other.append(3)
    #expect(other[Self.chunk - 2] == 3 && working[Self.chunk - 2] == 1)
  }

  @Test("a rebase does not take a newer chunk over rows this column appended in place")
  func absorbAfterARelease() {
    let base = Self.published(20)
    let working = Self.copy(of: base)
    working.append(42)
    // A publish that failed after copying the column ends the claim; the rows stay written.
    _ = Self.copy(of: working)
    let newer = Self.copy(of: base)
    newer[5] = -50
    newer.freeze()
    working.absorb(row: 5, from: newer, over: base)
    #expect(working[20] == 42 && working[5] == -50 && base[5] == 50)
  }

  @Test("random appends, writes, copies and freezes agree with arrays on every column")
  func differential() {
    var random = QueryRandom(seed: 29)
    let first = Self.published(Self.chunk - 40)
    var columns: [(column: Column<Int64>, model: [Int64], frozen: Bool)] = [
      (first, (0..<(Self.chunk - 40)).map { Int64($0 * 10) }, true)
    ]
    for step in 0..<3_000 {
      let pick = Int.random(in: 0..<columns.count, using: &random)
      let roll = Int.random(in: 0..<100, using: &random)
      if roll < 8 || columns[pick].frozen {
        guard columns.count < 60 else { continue }
        let copy = Self.copy(of: columns[pick].column)
        let frozen = Bool.random(using: &random)
        if frozen { copy.freeze() }
        columns.append((copy, columns[pick].model, frozen))
      } else if roll < 60 {
        let count = Int.random(in: 1...3, using: &random)
        columns[pick].column.grow(to: columns[pick].column.count + count)
        columns[pick].model += [Int64](repeating: 0, count: count)
        columns[pick].column[columns[pick].column.count - 1] = Int64(step)
        columns[pick].model[columns[pick].model.count - 1] = Int64(step)
      } else {
        let row = Int.random(in: 0..<columns[pick].model.count, using: &random)
        columns[pick].column[row] = Int64(-step)
        columns[pick].model[row] = Int64(-step)
      }
    }
    for (index, entry) in columns.enumerated() {
      #expect(entry.column.count == entry.model.count, "column \(index)")
      let mismatches = entry.model.indices.filter { entry.column[$0] != entry.model[$0] }
      #expect(mismatches.isEmpty, "column \(index): rows \(mismatches.prefix(5))")
    }
  }

  @Test("a version diff by chunks finds the rows a save appended in place to a shared chunk")
  func diffFindsRowsAppendedInPlace() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    for index in 0..<10 { _ = session.insert(entity: Fixture.trip, name: "t\(index)", days: 1) }
    try session.save()
    let previous = store.version.tables[Fixture.trip]
    let added = session.insert(entity: Fixture.trip, name: "new", days: 2)
    try session.save()
    let current = store.version.tables[Fixture.trip]
    // The save appended to the chunk both versions hold.
    #expect(current.stamps.chunkStorage(0) == previous.stamps.chunkStorage(0))
    let delta = IndexDelta<Int64>(comparingChunksOf: previous, to: current, slot: Fixture.days)
    #expect(delta.removed.isEmpty)
    #expect(delta.added.map(\.key) == [2] && delta.added.map(\.row) == [Int32(added.row)])
  }

  @Test("copies of one version appending from several threads at once each keep their rows")
  func concurrentAppends() {
    let version = Self.published(300)
    let workers = 4
    let results = Locked<[Int: [Int64]]>([:])
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let working = Self.copy(of: version)
      var values: [Int64] = []
      for step in 0..<200 {
        working.append(Int64(worker * 1_000 + step))
        if step % 50 == 49 { _ = Self.frozenCopy(of: working) }
      }
      for row in 0..<working.count { values.append(working[row]) }
      results.withLock { $0[worker] = values }
    }
    let all = results.withLock { $0 }
    for worker in 0..<workers {
      let expected = (0..<300).map { Int64($0 * 10) } + (0..<200).map { Int64(worker * 1_000 + $0) }
      #expect(all[worker] == expected, "worker \(worker)")
    }
    #expect(version.count == 300 && (0..<300).allSatisfy { version[$0] == Int64($0 * 10) })
  }
}
