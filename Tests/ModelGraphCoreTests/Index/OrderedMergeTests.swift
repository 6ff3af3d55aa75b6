import Testing

@testable import ModelGraphCore

/// The merge of several tables' ordered index views (a deep range fetch sorted by the indexed
/// attribute), against sorting the entries in range: ties on the key across tables and within
/// a table, removed rows and added entries, limits, empty ranges and both directions.
@Suite("Index: ordered merge of index views")
struct OrderedMergeTests {
  /// One table's view as the merge sees it, and the entries it holds.
  struct Part {
    var state: OrderedViewState<Int64>
    /// The live entries: the base's less the removed rows, and the added ones.
    var entries: [(key: Int64, row: Int32)]
  }

  /// A table of `count` base entries with keys below `keys`, `removed` of its rows removed and
  /// `added` entries added (new rows past the base's).
  static func part(
    count: Int, keys: Int64, removed: Int, added: Int, using random: inout QueryRandom
  ) -> Part {
    let base = (0..<count).map { (key: Int64.random(in: 0..<keys, using: &random), row: Int32($0)) }
    let gone = Set(base.shuffled(using: &random).prefix(removed).map(\.row))
    let new = (0..<added).map {
      (key: Int64.random(in: 0..<keys, using: &random), row: Int32(count + $0))
    }
    let state = OrderedViewState(
      base: OrderedIndex(sorted: sorted(base)), removed: gone,
      added: OrderedIndex(sorted: sorted(new)))
    return Part(state: state, entries: base.filter { !gone.contains($0.row) } + new)
  }

  static func sorted(_ entries: [(key: Int64, row: Int32)]) -> [(key: Int64, row: Int32)] {
    entries.sorted { ($0.key, $0.row) < ($1.key, $1.row) }
  }

  /// The rows in `ranges` (by table), sorted by key in the direction, then table, then row.
  static func expected(_ parts: [Part], _ ranges: [IndexValueRange], ascending: Bool)
    -> [RowReference]
  {
    var found: [(key: Int64, table: Int, row: Int32)] = []
    for (table, part) in parts.enumerated() {
      let range = ranges[table].keyRange(Int64.self)!
      for entry in part.entries where contains(range, entry.key) {
        found.append((entry.key, table, entry.row))
      }
    }
    found.sort {
      if $0.key != $1.key { return ascending ? $0.key < $1.key : $0.key > $1.key }
      return ($0.table, $0.row) < ($1.table, $1.row)
    }
    return found.map { RowReference(table: $0.table, row: Int($0.row)) }
  }

  static func contains(_ range: KeyRange<Int64>, _ key: Int64) -> Bool {
    if let lower = range.lower, lower.isInclusive ? key < lower.key : key <= lower.key {
      return false
    }
    if let upper = range.upper, upper.isInclusive ? key > upper.key : key >= upper.key {
      return false
    }
    return true
  }

  /// A random range over keys below `keys`: either bound may be missing, inclusive or not,
  /// and the range may be empty (its lower bound past its upper one).
  static func range(keys: Int64, using random: inout QueryRandom) -> IndexValueRange {
    func bound() -> (value: ModelValue, isInclusive: Bool)? {
      Int.random(in: 0..<5, using: &random) == 0
        ? nil : (.int(Int64.random(in: -1...keys, using: &random)), Bool.random(using: &random))
    }
    return IndexValueRange(lower: bound(), upper: bound())
  }

  static func rows(_ batch: [RowReference]) -> [[Int]] { batch.map { [$0.table, $0.row] } }

  /// Drains `cursor`: a first batch of `limit` rows by `fill`, the rest by `next`.
  static func drain(_ cursor: MergeCursor, firstBatch limit: Int) -> [RowReference] {
    var batch: [RowReference] = []
    let more = cursor.fill(&batch, limit)
    #expect(batch.count <= limit)
    if !more { return batch }
    while let (table, row) = cursor.next() {
      batch.append(RowReference(table: table, row: Int(row)))
    }
    return batch
  }

  @Test("random tables, ranges, limits and directions give the sorted entries in range")
  func randomMerges() throws {
    var random = QueryRandom(seed: 7)
    for round in 0..<400 {
      let keys = Int64([1, 3, 12, 200][round % 4])
      let parts = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        Self.part(
          count: Int.random(in: 0...40, using: &random), keys: keys,
          removed: Int.random(in: 0...5, using: &random),
          added: [0, 0, 3][Int.random(in: 0..<3, using: &random)], using: &random)
      }
      let ascending = Bool.random(using: &random)
      var ranges = parts.map { _ in Self.range(keys: keys, using: &random) }
      let cursor = try #require(
        OrderedViewState<Int64>.mergeCursor(
          parts.map(\.state), ranges: ranges, ascending: ascending))
      let limit = [0, 1, 5, 50][round % 4]
      let want = Self.expected(parts, ranges, ascending: ascending)
      let got = Self.drain(cursor, firstBatch: limit)
      #expect(Self.rows(got) == Self.rows(want), "round \(round) ascending \(ascending)")
      // Restarted with other ranges (a cached plan's next run), after stopping at a limit.
      ranges = parts.map { _ in Self.range(keys: keys, using: &random) }
      var stopped: [RowReference] = []
      _ = cursor.fill(&stopped, 2)
      #expect(cursor.restart(ranges))
      let again = Self.drain(cursor, firstBatch: limit)
      #expect(
        Self.rows(again) == Self.rows(Self.expected(parts, ranges, ascending: ascending)),
        "round \(round) restarted")
    }
  }

  @Test("ties on the key go by table, then row, in both directions; a limit stops among them")
  func ties() throws {
    // Key 5 in both tables, on several rows of each; one of them an added entry.
    let first = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(4, 0), (5, 1), (5, 3), (6, 4)]), removed: [3],
      added: OrderedIndex(sorted: [(5, 2)]))
    let second = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(5, 0), (5, 4)]), removed: [], added: OrderedIndex(sorted: []))
    let all = IndexValueRange(lower: nil, upper: nil)
    let ascending = try #require(
      OrderedViewState<Int64>.mergeCursor([second, first], ranges: [all, all], ascending: true))
    #expect(
      Self.rows(Self.drain(ascending, firstBatch: 10))
        == [[1, 0], [0, 0], [0, 4], [1, 1], [1, 2], [1, 4]])
    let descending = try #require(
      OrderedViewState<Int64>.mergeCursor([first, second], ranges: [all, all], ascending: false))
    var limited: [RowReference] = []
    #expect(descending.fill(&limited, 3))
    #expect(Self.rows(limited) == [[0, 4], [0, 1], [0, 2]])
    #expect(Self.rows(Self.drain(descending, firstBatch: 10)) == [[1, 0], [1, 4], [0, 0]])
  }

  @Test("long runs of equal keys, cut by the range's bounds, merge in order in both directions")
  func longRuns() throws {
    // Keys 0 ..< 6, each on a run of a few hundred rows (rows ascending within a key), with
    // rows removed at the start, the middle and the end of runs; a second table interleaves.
    var random = QueryRandom(seed: 11)
    var parts: [Part] = []
    for table in 0..<2 {
      var entries: [(key: Int64, row: Int32)] = []
      for key in Int64(0)..<6 {
        for _ in 0..<Int.random(in: 1...700, using: &random) {
          entries.append((key, Int32(entries.count)))
        }
      }
      let removed = Set(
        entries.filter { _ in Int.random(in: 0..<9, using: &random) == 0 }.map(\.row)
      )
      .union(table == 0 ? [0, Int32(entries.count - 1)] : [])
      let added = (0..<40).map { (key: Int64($0 % 6), row: Int32(entries.count + $0)) }
      let state = OrderedViewState(
        base: OrderedIndex(sorted: Self.sorted(entries)), removed: removed,
        added: OrderedIndex(sorted: Self.sorted(added)))
      parts.append(
        Part(state: state, entries: entries.filter { !removed.contains($0.row) } + added))
    }
    let bounds: [IndexValueRange] = [
      IndexValueRange(lower: nil, upper: nil),
      IndexValueRange(lower: (.int(2), true), upper: (.int(4), true)),
      IndexValueRange(lower: (.int(2), false), upper: (.int(4), false)),
      IndexValueRange(lower: (.int(5), true), upper: nil),
      IndexValueRange(lower: nil, upper: (.int(0), true)),
    ]
    for ascending in [true, false] {
      for range in bounds {
        let ranges = [range, range]
        let want = Self.expected(parts, ranges, ascending: ascending)
        for limit in [1, 50, 1_000] {
          let cursor = try #require(
            OrderedViewState<Int64>.mergeCursor(
              parts.map(\.state), ranges: ranges, ascending: ascending))
          var batch: [RowReference] = []
          let more = cursor.fill(&batch, limit)
          #expect(more == (want.count >= limit))
          #expect(Self.rows(batch) == Self.rows(Array(want.prefix(limit))))
          // The rest, a row at a time after a second batch.
          _ = cursor.fill(&batch, limit * 2)
          while let (table, row) = cursor.next() {
            batch.append(RowReference(table: table, row: Int(row)))
          }
          #expect(Self.rows(batch) == Self.rows(want), "ascending \(ascending) limit \(limit)")
        }
      }
    }
  }

  @Test("empty ranges and empty indexes give no rows, and a restart finds rows again")
  func emptyRanges() throws {
    let part = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(1, 0), (2, 1), (3, 2)]), removed: [],
      added: OrderedIndex(sorted: []))
    let empty = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: []), removed: [], added: OrderedIndex(sorted: []))
    let none = IndexValueRange(lower: (.int(3), false), upper: (.int(1), true))
    let between = IndexValueRange(lower: (.int(1), false), upper: (.int(2), false))
    let all = IndexValueRange(lower: nil, upper: nil)
    for ascending in [true, false] {
      let cursor = try #require(
        OrderedViewState<Int64>.mergeCursor(
          [part, empty], ranges: [none, all], ascending: ascending))
      #expect(cursor.next() == nil)
      var batch: [RowReference] = []
      #expect(!cursor.fill(&batch, 5))
      #expect(batch.isEmpty)
      #expect(cursor.restart([between, all]))
      #expect(cursor.next() == nil)
      #expect(cursor.restart([all, none]))
      #expect(
        Self.rows(Self.drain(cursor, firstBatch: 1))
          == (ascending ? [[0, 0], [0, 1], [0, 2]] : [[0, 2], [0, 1], [0, 0]]))
    }
  }

  @Test("a range that does not convert to the key type makes no cursor and fails a restart")
  func unconvertibleRange() throws {
    let part = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(1, 0)]), removed: [], added: OrderedIndex(sorted: []))
    let text = IndexValueRange(lower: (.string("a"), true), upper: nil)
    let all = IndexValueRange(lower: nil, upper: nil)
    #expect(OrderedViewState<Int64>.mergeCursor([part], ranges: [text], ascending: true) == nil)
    let cursor = try #require(
      OrderedViewState<Int64>.mergeCursor([part], ranges: [all], ascending: true))
    #expect(!cursor.restart([text]))
  }

  @Test("fill appends after the rows a batch holds, and leaves none of its own past the last")
  func fillAppendsAndTrims() throws {
    let first = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(1, 0), (3, 1), (5, 2)]), removed: [1],
      added: OrderedIndex(sorted: [(4, 3)]))
    let second = OrderedViewState<Int64>(
      base: OrderedIndex(sorted: [(2, 0), (6, 1)]), removed: [], added: OrderedIndex(sorted: []))
    let all = IndexValueRange(lower: nil, upper: nil)
    let cursor = try #require(
      OrderedViewState<Int64>.mergeCursor([first, second], ranges: [all, all], ascending: true))
    // Rows already in the batch stay, in front of the rows taken.
    var batch = [RowReference(table: 7, row: 70), RowReference(table: 8, row: 80)]
    #expect(cursor.fill(&batch, 4))
    #expect(Self.rows(batch) == [[7, 70], [8, 80], [0, 0], [1, 0]])
    // A batch already holding the count takes nothing.
    #expect(cursor.fill(&batch, 3))
    #expect(batch.count == 4)
    // Asked for more than the walks hold: the rows left, and no place unfilled.
    batch = [RowReference(table: 9, row: 90)]
    #expect(!cursor.fill(&batch, 10))
    #expect(Self.rows(batch) == [[9, 90], [0, 3], [0, 2], [1, 1]])
    batch = []
    #expect(!cursor.fill(&batch, 2))
    #expect(batch.isEmpty)
  }
}
