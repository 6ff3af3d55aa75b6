import Dispatch
import Testing

@testable import ModelGraphCore

private let chunkSize = 1 << AnyColumn.chunkShift

private func key(_ value: Int) -> ObjectKey {
  ObjectKey(entity: value % 3, row: value, generation: UInt32(value % 5))
}

/// The list row `row` of the published columns below holds: `row % 4` keys.
private func list(_ row: Int) -> [ObjectKey] { (0..<(row % 4)).map { key(row * 4 + $0) } }

/// Appending in place to a to-many column: a working column claims the rows past its count of
/// the last chunk it shares with a published version and writes their lists into the chunk's
/// arena, after every key older versions read, instead of copying the chunk; only one column at
/// a time holds the claim, and every other one copies the rows it sees.
@Suite("KeyListColumn: appending in place to a shared last chunk")
struct KeyListClaimTests {
  /// A published (frozen) column of `count` rows, row `r` holding `list(r)`.
  private static func published(_ count: Int) -> KeyListColumn {
    let column = KeyListColumn()
    column.grow(to: count)
    for row in 0..<count { column[row] = list(row) }
    return frozenCopy(of: column)
  }

  private static func copy(of column: KeyListColumn) -> KeyListColumn {
    unsafeDowncast(column.copy(), to: KeyListColumn.self)
  }

  /// What a save publishes: a frozen copy of the working column.
  private static func frozenCopy(of column: KeyListColumn) -> KeyListColumn {
    let copy = copy(of: column)
    copy.freeze()
    return copy
  }

  private static func lastChunk(_ column: KeyListColumn) -> UnsafeRawPointer {
    column.chunkAddress((column.count - 1) >> AnyColumn.chunkShift)
  }

  /// Rows of `column` below `count` that do not hold `list(row)`.
  private static func damaged(_ column: KeyListColumn, _ count: Int) -> [Int] {
    (0..<count).filter { column[$0] != list($0) }
  }

  @Test("the first copy to append claims the shared chunk; a second one copies it")
  func oneClaimAtATime() {
    let version = Self.published(100)
    let first = Self.copy(of: version)
    let second = Self.copy(of: version)
    first.grow(to: 101)
    first[100] = [key(90_000 + 1), key(90_000 + 2)]
    second.grow(to: 101)
    second.append(key(90_000 + 3), at: 100)
    #expect(Self.lastChunk(first) == Self.lastChunk(version))
    #expect(Self.lastChunk(second) != Self.lastChunk(version))
    #expect(first[100] == [key(90_000 + 1), key(90_000 + 2)] && second[100] == [key(90_000 + 3)])
    #expect(version.count == 100 && Self.damaged(version, 100).isEmpty)
    #expect(Self.damaged(first, 100).isEmpty && Self.damaged(second, 100).isEmpty)
  }

  @Test("after each save the working column appends in place again; every version keeps its rows")
  func savesInARow() {
    // 600 rows hold 900 keys, in an arena of 1 024: room for the 40 keys appended.
    let start = 600
    var versions = [Self.published(start)]
    let working = Self.copy(of: versions[0])
    for step in 0..<20 {
      working.grow(to: start + step + 1)
      working[start + step] = [key(1_000 + step)]
      working.append(key(2_000 + step), at: start + step)
      #expect(Self.lastChunk(working) == Self.lastChunk(versions[0]), "step \(step)")
      versions.append(Self.frozenCopy(of: working))
    }
    for (index, version) in versions.enumerated() {
      #expect(version.count == start + index)
      #expect(Self.damaged(version, start).isEmpty, "version \(index)")
      #expect(
        (0..<index).allSatisfy { version[start + $0] == [key(1_000 + $0), key(2_000 + $0)] },
        "version \(index)")
    }
    // An older version's copy finds the rows past its count taken: it copies the chunk.
    let stale = Self.copy(of: versions[3])
    stale.grow(to: start + 4)
    #expect(Self.lastChunk(stale) != Self.lastChunk(versions[3]))
    #expect(stale[start + 3].isEmpty && versions[20][start + 3] == [key(1_003), key(2_003)])
    stale[start + 3] = [key(90_013)]
    #expect(stale[start + 3] == [key(90_013)])
    #expect(versions[20][start + 3] == [key(1_003), key(2_003)])
  }

  @Test("a claimed list that outgrows the arena copies the chunk; older versions keep reading it")
  func reallocation() {
    let version = Self.published(40)
    let arena = version.chunkForReading(0).arenaCapacity
    let working = Self.copy(of: version)
    working.grow(to: 41)
    var expected: [ObjectKey] = []
    var copiedAt: Int?
    for step in 0..<(2 * arena) {
      working.append(key(10_000 + step), at: 40)
      expected.append(key(10_000 + step))
      if copiedAt == nil && Self.lastChunk(working) != Self.lastChunk(version) { copiedAt = step }
    }
    // In place while the arena had room, then one copy, which took the rows written in place.
    #expect((copiedAt ?? 0) > 0)
    #expect(working[40] == expected && Self.damaged(working, 40).isEmpty)
    #expect(version.count == 40 && Self.damaged(version, 40).isEmpty)
    #expect(version.chunkForReading(0).arenaCapacity == arena)
    // The chunk's row 40 was given back empty: the next copy claims it again.
    let next = Self.copy(of: version)
    next.grow(to: 41)
    #expect(Self.lastChunk(next) == Self.lastChunk(version))
    #expect(next[40].isEmpty)
    next[40] = [key(7)]
    #expect(next[40] == [key(7)] && working[40] == expected)
  }

  @Test("a write below the claimed rows copies the chunk, and the chunk can be claimed again")
  func writeBelowTheClaim() {
    let version = Self.published(50)
    let working = Self.copy(of: version)
    working.grow(to: 51)
    working[50] = [key(7), key(8)]
    working[3] = [key(90_000 + 30)]
    #expect(Self.lastChunk(working) != Self.lastChunk(version))
    #expect(working[50] == [key(7), key(8)] && working[3] == [key(90_000 + 30)])
    #expect(Self.damaged(version, 50).isEmpty)
    let other = Self.copy(of: version)
    other.grow(to: 51)
    #expect(Self.lastChunk(other) == Self.lastChunk(version))
    #expect(other[50].isEmpty)
    other.append(key(9), at: 50)
    #expect(other[50] == [key(9)] && working[50] == [key(7), key(8)])
  }

  @Test("a whole chunk copies every list: claimed up to its last row, or holding garbage")
  func wholeChunkCopies() {
    let start = chunkSize - 10
    let version = Self.published(start)
    let working = Self.copy(of: version)
    working.grow(to: chunkSize)
    for row in start..<chunkSize { working[row] = list(row) }
    #expect(Self.lastChunk(working) == Self.lastChunk(version))
    // A write below the claim copies the chunk's every row, the claimed ones with them.
    working[3] = [key(90_000 + 3)]
    #expect(Self.lastChunk(working) != Self.lastChunk(version))
    #expect(working[3] == [key(90_000 + 3)])
    #expect((0..<chunkSize).filter { $0 != 3 && working[$0] != list($0) }.isEmpty)
    #expect(version.count == start && Self.damaged(version, start).isEmpty)
    // Row 3 shrank in place: its two other keys are garbage in the published chunk, which a
    // copy leaves out.
    let published = Self.frozenCopy(of: working)
    #expect(published.chunkForReading(0).garbage == 2)
    let next = Self.copy(of: published)
    next[5] = [key(90_000 + 5)]
    let copied = next.chunkForReading(0)
    #expect(copied.garbage == 0 && copied.used == copied.liveKeys)
    #expect(next[3] == [key(90_000 + 3)] && next[5] == [key(90_000 + 5)])
    #expect((0..<chunkSize).filter { $0 != 3 && $0 != 5 && next[$0] != list($0) }.isEmpty)
    #expect(published[5] == list(5) && Self.damaged(version, start).isEmpty)
  }

  @Test("a column dropped with a claim (a rollback) gives the rows back, empty")
  func dropWithAClaim() {
    let version = Self.published(30)
    do {
      let working = Self.copy(of: version)
      working.grow(to: 32)
      working[30] = [key(5)]
      working[31] = [key(6), key(7)]
    }
    let next = Self.copy(of: version)
    next.grow(to: 32)
    #expect(Self.lastChunk(next) == Self.lastChunk(version))
    #expect(next[30].isEmpty && next[31].isEmpty && version.count == 30)
    next[31] = [key(8)]
    #expect(next[31] == [key(8)] && Self.damaged(next, 30).isEmpty)
  }

  @Test("a chunk its last holder keeps without a copy drops what a gone version appended")
  func keptWithoutACopy() {
    var version: KeyListColumn? = Self.published(20)
    let stale = Self.copy(of: version!)
    do {
      let working = Self.copy(of: version!)
      working.grow(to: 22)
      working[20] = [key(1)]
      working[21] = [key(2)]
      version = Self.frozenCopy(of: working)
    }
    version = nil
    // `stale` holds the chunk alone now: a write keeps it, and rows 20 and 21 must read empty.
    stale[2] = [key(90_000 + 2)]
    stale.grow(to: 22)
    #expect(stale[20].isEmpty && stale[21].isEmpty && stale[2] == [key(90_000 + 2)])
    #expect((0..<20).filter { $0 != 2 && stale[$0] != list($0) }.isEmpty)
  }

  @Test("a rebase does not take a newer chunk over rows this column appended in place")
  func absorbOverAppendedRows() {
    let base = Self.published(20)
    let working = Self.copy(of: base)
    working.grow(to: 21)
    working[20] = [key(42)]
    // A publish that failed after copying the column ends the claim; the rows stay written.
    _ = Self.copy(of: working)
    let newer = Self.copy(of: base)
    newer[5] = [key(90_000 + 50)]
    newer.freeze()
    working.absorb(row: 5, from: newer, over: base)
    #expect(working[20] == [key(42)] && working[5] == [key(90_000 + 50)] && base[5] == list(5))
  }

  @Test("random appends, sets, copies and freezes agree with arrays on every column")
  func differential() {
    for seed in 1...4 {
      var random = QueryRandom(seed: UInt64(30 + seed))
      let start = chunkSize - 60
      var columns: [(column: KeyListColumn, model: [[ObjectKey]], frozen: Bool)] = [
        (Self.published(start), (0..<start).map(list), true)
      ]
      for step in 0..<4_000 {
        let pick = Int.random(in: 0..<columns.count, using: &random)
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 8 || columns[pick].frozen {
          guard columns.count < 50 else { continue }
          let copy = Self.copy(of: columns[pick].column)
          let frozen = Bool.random(using: &random)
          if frozen { copy.freeze() }
          columns.append((copy, columns[pick].model, frozen))
        } else if roll < 40 {
          let count = Int.random(in: 1...2, using: &random)
          let entry = columns[pick]
          entry.column.grow(to: entry.column.count + count)
          columns[pick].model += [[ObjectKey]](repeating: [], count: count)
          let keys = (0..<Int.random(in: 0...5, using: &random)).map { key(step * 8 + $0) }
          entry.column[entry.column.count - 1] = keys
          columns[pick].model[columns[pick].model.count - 1] = keys
        } else if roll < 75 {
          // Mostly the newest rows, which a claim writes in place.
          let count = columns[pick].model.count
          let row = max(0, count - 1 - Int.random(in: 0..<8, using: &random))
          columns[pick].column.append(key(90_000 + step), at: row)
          columns[pick].model[row].append(key(90_000 + step))
        } else {
          let row = Int.random(in: 0..<columns[pick].model.count, using: &random)
          let keys = (0..<Int.random(in: 0...3, using: &random)).map { key(step * 8 + $0) }
          columns[pick].column[row] = keys
          columns[pick].model[row] = keys
        }
      }
      for (index, entry) in columns.enumerated() {
        #expect(entry.column.count == entry.model.count, "seed \(seed) column \(index)")
        let mismatches = entry.model.indices.filter { entry.column[$0] != entry.model[$0] }
        #expect(mismatches.isEmpty, "seed \(seed) column \(index): rows \(mismatches.prefix(5))")
      }
    }
  }

  @Test("each save appends its to-many lists in place; every published version keeps its own")
  func savesThroughASession() throws {
    let session = try GraphFixture.makeSession()
    let store = session.store
    var expected: [(department: ObjectKey, employees: [ObjectKey])] = []
    var versions: [(version: StoreVersion, known: Int)] = []
    // The first save fills 300 rows (600 keys, in an arena of 1 024); each later one adds one.
    for step in 0..<13 {
      for item in 0..<(step == 0 ? 300 : 1) {
        let department = session.insertDepartment("d\(step)-\(item)")
        let employees = (0..<2).map {
          session.insertEmployee("e\(step)-\(item)-\($0)", badge: nil)
        }
        session.setRelationship(of: department, slot: 0, to: employees)
        expected.append((department, employees))
      }
      try session.save()
      versions.append((store.version, expected.count))
    }
    let first = versions[0].version.tables[GraphFixture.department].relationshipColumns[0]
    let last = versions[12].version.tables[GraphFixture.department].relationshipColumns[0]
    // The saves after the first wrote into the chunk the first version holds.
    #expect(
      unsafeDowncast(first, to: KeyListColumn.self).chunkAddress(0)
        == unsafeDowncast(last, to: KeyListColumn.self).chunkAddress(0))
    for (index, entry) in versions.enumerated() {
      let table = entry.version.tables[GraphFixture.department]
      #expect(table.rowCount >= entry.known, "version \(index)")
      for (department, employees) in expected.prefix(entry.known) {
        #expect(
          table.relatedKeys(row: Int(department.row), slot: 0) == employees, "version \(index)")
      }
    }
  }

  @Test("published versions read on other threads while later saves append to their chunk")
  func concurrentReadersAndWriters() {
    let first = Self.published(chunkSize - 300)
    let versions = Locked<[KeyListColumn]>([first])
    let failures = Locked<[String]>([])
    let writers = 2
    let readers = 2
    DispatchQueue.concurrentPerform(iterations: writers + readers) { worker in
      if worker < writers {
        // Each save: a copy of the newest version, two new rows, published.
        for step in 0..<120 {
          let latest = versions.withLock { $0[$0.count - 1] }
          let working = Self.copy(of: latest)
          let count = working.count
          working.grow(to: count + 2)
          for row in count..<(count + 2) {
            working[row] = list(row)
            if step % 7 == 0 { working.append(key(row * 4 + 3), at: row) }
            if step % 7 == 0 { working[row] = list(row) }
          }
          let published = Self.frozenCopy(of: working)
          versions.withLock { $0.append(published) }
        }
      } else {
        var random = QueryRandom(seed: UInt64(worker))
        for _ in 0..<300 {
          let version = versions.withLock { $0[Int.random(in: 0..<$0.count, using: &random)] }
          let damaged = Self.damaged(version, version.count)
          if !damaged.isEmpty {
            failures.withLock { $0.append("rows \(damaged.prefix(5)) of \(version.count)") }
          }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    for version in versions.withLock({ $0 }) {
      #expect(Self.damaged(version, version.count).isEmpty)
    }
  }
}
