import Testing

@testable import ModelGraphCore

/// A hash index's partitions (flat arrays ordered by hash) against a dictionary of each key's
/// rows, through random builds and changes, with keys whose hashes are all different and with
/// keys whose hashes collide.
@Suite("Index: hash index partitions")
struct HashIndexPartitionTests {
  /// A key whose hash is that of `value % 3`: most keys share their hash with others.
  struct CollidingKey: ColumnValue {
    var value: Int64

    static var placeholder: CollidingKey { CollidingKey(value: 0) }
    var modelValue: ModelValue { .int(value) }
    init(value: Int64) { self.value = value }
    init?(modelValue: ModelValue) {
      guard case .int(let value) = modelValue else { return nil }
      self.value = value
    }
    func store(in column: AnyColumn, row: Int) {
      unsafeDowncast(column, to: Column<CollidingKey>.self)[row] = self
    }
    static func clear(row: Int, in column: AnyColumn) {
      unsafeDowncast(column, to: Column<CollidingKey>.self)[row] = placeholder
    }
    func hash(into hasher: inout Hasher) { hasher.combine(value % 3) }
  }

  /// Checks `index` against `model` (each key's rows, ascending), probing keys `0..<keys`
  /// and a few absent ones.
  static func expect<Key>(
    _ index: HashIndex<Key>, matches model: [Key: [Int32]], probing keys: [Key],
    _ comment: Comment
  ) {
    #expect(index.isWellFormed, comment)
    #expect(index.count == model.values.reduce(0) { $0 + $1.count }, comment)
    #expect(index.entries == model, comment)
    for key in keys {
      let expected = model[key] ?? []
      #expect(index.rows(key) == expected, comment)
      #expect(index.rowCount(key) == expected.count, comment)
      var visited: [Int32] = []
      index.forEachRow(key) { visited.append($0) }
      #expect(visited == expected, comment)
    }
  }

  /// Builds an index of `rowCount` random rows over `keyCount` keys, then applies `steps`
  /// random deltas (removals of held rows, additions of new rows and of moved ones), checking
  /// it against a model after the build and after every step.
  static func randomRounds<Key: ColumnValue>(
    seed: UInt64, keyCount: Int, rowCount: Int, steps: Int, key: (Int64) -> Key
  ) {
    var random = QueryRandom(seed: seed)
    var keyOfRow: [Int32: Key] = [:]
    var entries: [(key: Key, row: Int32)] = []
    for row in Int32(0)..<Int32(rowCount) {
      let value = key(Int64.random(in: 0..<Int64(keyCount), using: &random))
      keyOfRow[row] = value
      entries.append((value, row))
    }
    entries.shuffle(using: &random)
    func model() -> [Key: [Int32]] {
      var result: [Key: [Int32]] = [:]
      for (row, key) in keyOfRow { result[key, default: []].append(row) }
      return result.mapValues { $0.sorted() }
    }
    let probes = (-2..<Int64(keyCount + 2)).map(key)
    var index = HashIndex<Key>.build(entries: entries)
    expect(index, matches: model(), probing: probes, "seed \(seed), built")
    var nextRow = Int32(rowCount)
    for step in 0..<steps {
      var delta = IndexDelta<Key>()
      var touched = Set<Int32>()
      for _ in 0..<Int.random(in: 1...40, using: &random) {
        let choice = Int.random(in: 0..<3, using: &random)
        if choice == 0 || keyOfRow.isEmpty {
          let value = key(Int64.random(in: 0..<Int64(keyCount), using: &random))
          delta.added.append((value, nextRow))
          keyOfRow[nextRow] = value
          touched.insert(nextRow)
          nextRow += 1
          continue
        }
        guard let (row, old) = keyOfRow.randomElement(using: &random),
          touched.insert(row).inserted
        else { continue }
        delta.removed.append((old, row))
        if choice == 1 {
          keyOfRow[row] = nil
        } else {
          let value = key(Int64.random(in: 0..<Int64(keyCount), using: &random))
          delta.added.append((value, row))
          keyOfRow[row] = value
        }
      }
      index = index.applying(delta)
      expect(index, matches: model(), probing: probes, "seed \(seed), step \(step)")
    }
  }

  @Test("unique keys: builds and random changes agree with the model", arguments: [1 as UInt64, 2])
  func uniqueKeys(seed: UInt64) {
    Self.randomRounds(seed: seed, keyCount: 5_000, rowCount: 3_000, steps: 60) { $0 }
  }

  @Test("few keys with many rows each agree with the model", arguments: [3 as UInt64, 4])
  func fewKeys(seed: UInt64) {
    Self.randomRounds(seed: seed, keyCount: 7, rowCount: 2_000, steps: 60) { $0 }
  }

  @Test("keys whose hashes collide are told apart", arguments: [5 as UInt64, 6])
  func collidingHashes(seed: UInt64) {
    Self.randomRounds(seed: seed, keyCount: 40, rowCount: 600, steps: 80) {
      CollidingKey(value: $0)
    }
  }

  @Test("string keys agree with the model")
  func stringKeys() {
    Self.randomRounds(seed: 7, keyCount: 300, rowCount: 1_000, steps: 40) { "key \($0)" }
  }

  @Test("an index grown four times past its partitioning is partitioned again")
  func repartitions() {
    let small = HashIndex<Int64>.build(entries: (0..<100).map { (Int64($0), Int32($0)) })
    #expect(small.partitionsPerGroup == 1)
    var delta = IndexDelta<Int64>()
    delta.removed = [(5, 5)]
    delta.added = (100..<70_000).map { (Int64($0), Int32($0)) }
    let grown = small.applying(delta)
    #expect(grown.partitionsPerGroup == 8)
    var model: [Int64: [Int32]] = [:]
    for row in 0..<70_000 where row != 5 { model[Int64(row)] = [Int32(row)] }
    Self.expect(grown, matches: model, probing: [-1, 0, 5, 6, 99, 100, 69_999, 70_000], "grown")
  }

  @Test("every key is found in partitions grown to four times their size, and absent keys are not")
  func grownPartitions() {
    // 16,384 keys: one partition a group, about 64 keys each; adding 48,000 more leaves the
    // partitioning (it is redone past four times), so each partition holds about 250 keys and
    // a search starting from the key's estimated place walks further to reach it.
    let built = HashIndex<Int64>.build(entries: (0..<16_384).map { (Int64($0), Int32($0)) })
    var delta = IndexDelta<Int64>()
    delta.added = (16_384..<64_384).map { (Int64($0), Int32($0)) }
    let grown = built.applying(delta)
    #expect(grown.partitionsPerGroup == 1)
    #expect(grown.isWellFormed)
    for key in Int64(0)..<64_384 where grown.rowCount(key) != 1 || grown.rows(key) != [Int32(key)] {
      Issue.record("key \(key) not found")
    }
    for key in Int64(64_384)..<70_000 where grown.rowCount(key) != 0 || !grown.rows(key).isEmpty {
      Issue.record("absent key \(key) found")
    }
  }

  @Test("a key gains and loses rows past one, and another key takes the list it left")
  func rowListsComeAndGo() {
    // Keys 0 and 1 collide (hash of value % 3), so they share a partition and its lists.
    let a = CollidingKey(value: 0)
    let b = CollidingKey(value: 3)
    var index = HashIndex<CollidingKey>.build(entries: [(a, 4), (b, 9), (a, 2)])
    Self.expect(index, matches: [a: [2, 4], b: [9]], probing: [a, b], "built")
    var step = IndexDelta<CollidingKey>()
    step.removed = [(a, 4)]
    step.added = [(b, 1), (a, 7), (a, 3)]
    index = index.applying(step)
    Self.expect(index, matches: [a: [2, 3, 7], b: [1, 9]], probing: [a, b], "grown")
    step.removed = [(a, 2), (a, 7), (b, 9)]
    step.added = [(b, 5)]
    index = index.applying(step)
    Self.expect(index, matches: [a: [3], b: [1, 5]], probing: [a, b], "shrunk")
    step.removed = [(a, 3), (b, 1), (b, 5)]
    step.added = []
    index = index.applying(step)
    Self.expect(index, matches: [:], probing: [a, b], "emptied")
    #expect(index.count == 0)
  }
}
