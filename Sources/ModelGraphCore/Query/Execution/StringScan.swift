/// Conditions that test each row of a string column against a constant over the rows' UTF-8
/// bytes (``StringColumnStorage``), chunk by chunk, without decoding a `String` for rows and
/// constants that are simple ASCII.
enum StringScan {
  /// `op` of each row of `column` (a `String` or `String?` column) against `pattern`; `nil`
  /// rows never match. `nil` when the column does not keep UTF-8.
  static func make<Value: ColumnValue>(
    _ column: Column<Value>, _ pattern: StringPattern, _ op: QueryStringOperator
  ) -> CompiledCondition? {
    guard let strings = column.strings else { return nil }
    return condition(strings, PatternRow(pattern: pattern, op: op))
  }

  /// `column == constant` (`K` is ``EqualKernel``) or `!=` (``NotEqualKernel``) for a `String`
  /// or `String?` column, with Swift's `Optional` equality; bytes decide when the constant and
  /// the row are simple ASCII, `String`'s `==` (canonical equivalence) otherwise. `nil` when
  /// the column does not keep UTF-8.
  static func equality<T: ColumnValue, K: EqualityKernel>(
    _ column: DirectColumn<T>, _ constant: T?, _: K.Type
  ) -> CompiledCondition? {
    guard T.self == String.self, let strings = storage(column) else { return nil }
    let needle = constant.map { unsafeBitCast($0, to: String.self) }
    return condition(
      strings, EqualityRow(pattern: needle.map(StringPattern.init), wantsEqual: K.matches(0, 0)))
  }

  /// `column < constant` (and the other orderings of `K`) for a `String` or `String?` column;
  /// `nil` rows never match. Bytes decide when the constant and the row are ASCII without
  /// carriage returns (where byte order is `String`'s order), `String`'s `<` otherwise. `nil`
  /// when the column does not keep UTF-8.
  static func ordering<T: ColumnValue, K: OrderingKernel>(
    _ column: DirectColumn<T>, _ constant: T, _: K.Type
  ) -> CompiledCondition? {
    guard T.self == String.self, let strings = storage(column) else { return nil }
    let pattern = StringPattern(unsafeBitCast(constant, to: String.self))
    return condition(strings, OrderingRow<K>(pattern: pattern))
  }

  private static func storage<T>(_ column: DirectColumn<T>) -> StringColumnStorage? {
    switch column {
    case .plain(let column): column.strings
    case .optional(let column): column.strings
    }
  }

  /// The condition testing each row with `matcher`, inlined into the test, the refining and
  /// the counting loops.
  private static func condition<M: StringRowMatcher>(
    _ strings: StringColumnStorage, _ matcher: M
  ) -> CompiledCondition {
    CompiledCondition(
      test: { row in
        matcher.matches(strings.chunk(row &>> AnyColumn.chunkShift), row & AnyColumn.chunkMask)
      },
      refine: { selection in
        matcher.refine(strings.chunk(selection.chunkStart &>> AnyColumn.chunkShift), selection)
      },
      countChunk: { index, stamps in matcher.count(strings.chunk(index), stamps) })
  }
}

/// A test of one row of a string chunk, as a type so the scan loops specialize and inline it.
private protocol StringRowMatcher {
  func matches(_ chunk: StringChunk, _ row: Int) -> Bool
  /// Keeps the rows of `selection` (rows of `chunk`) that match.
  func refine(_ chunk: StringChunk, _ selection: RowSelection)
  /// The number of live rows of `chunk` (by `stamps`) that match.
  func count(_ chunk: StringChunk, _ stamps: UnsafeBufferPointer<UInt32>) -> Int
}

extension StringRowMatcher {
  @inline(__always) func refine(_ chunk: StringChunk, _ selection: RowSelection) {
    selection.keep { matches(chunk, $0) }
  }

  @inline(__always) func count(_ chunk: StringChunk, _ stamps: UnsafeBufferPointer<UInt32>)
    -> Int
  {
    countTestingEachRow(chunk, stamps)
  }

  /// ``count(_:_:)`` by ``matches(_:_:)`` on each live row, for a matcher that counts
  /// otherwise only in some cases.
  @inline(__always) func countTestingEachRow(
    _ chunk: StringChunk, _ stamps: UnsafeBufferPointer<UInt32>
  ) -> Int {
    var count = 0
    for offset in 0..<stamps.count where stamps[offset] & 1 != 0 {
      count &+= matches(chunk, offset) ? 1 : 0
    }
    return count
  }
}

/// A ``QueryStringOperator`` test; `nil` never matches.
///
/// When the test of a simple row is a search for the needle's bytes
/// (``StringPattern/searchesBytes(_:)``), refining and counting search the chunk's arena as
/// one run of bytes (``ArenaSearch``) instead of each row on its own (refining, when at least
/// an eighth of the chunk's rows are selected).
private struct PatternRow: StringRowMatcher {
  let pattern: StringPattern
  let op: QueryStringOperator
  let searchesBytes: Bool
  /// Whether the byte search matches ASCII letters in either case.
  let folds: Bool

  init(pattern: StringPattern, op: QueryStringOperator) {
    self.pattern = pattern
    self.op = op
    searchesBytes = pattern.searchesBytes(op)
    folds = pattern.folds(op)
  }

  @inline(__always) func matches(_ chunk: StringChunk, _ row: Int) -> Bool {
    !chunk.isNil(row) && pattern.matches(chunk, row: row, op)
  }

  func refine(_ chunk: StringChunk, _ selection: RowSelection) {
    // Sparse selections (after another conjunct) test their rows alone: the arena search reads
    // the bytes between them too.
    guard searchesBytes, selection.count &* 8 >= chunk.filled else {
      return selection.keep { matches(chunk, $0) }
    }
    if chunk.holdsOnlySimpleRows { return keepRowsOfOccurrences(chunk, selection) }
    var search = ArenaSearch(chunk: chunk)
    selection.keep { search.matches($0, self) }
  }

  /// ``refine(_:_:)`` for a chunk whose rows are all simple: walks the occurrences of the
  /// needle in the arena, finds the row of each (by its offsets, from the row after the last
  /// one found), and keeps the selected rows that hold one, without a test per row.
  ///
  /// - Complexity: O(arena bytes + occurrences × log(rows between them) + selected rows).
  private func keepRowsOfOccurrences(_ chunk: StringChunk, _ selection: RowSelection) {
    let offsets = chunk.offsets
    let filled = chunk.filled
    let end = chunk.used
    let needle = pattern.needleCount
    var kept = 0
    var position = 0
    // Every row of the chunk selected (ascending offsets, the last one `count - 1`): a row
    // holding the needle is kept without looking for it in the selection.
    let selectsAll =
      selection.count > 0 && Int(selection.offsets[selection.count &- 1]) == selection.count &- 1
    // Rows before `row` are done; the search goes on from its first byte.
    var row = 0
    while row < filled {
      let hit = pattern.firstOccurrence(in: chunk, from: Int(offsets[row]), folded: folds)
      guard hit < end else { break }
      let holder = Self.row(holding: hit, from: row, filled: filled, offsets)
      let next = Int(offsets[holder &+ 1])
      if hit &+ needle <= next {
        // The occurrence lies within the row: keep the row if it is selected.
        if selectsAll {
          guard holder < selection.count else { break }
          selection.offsets[kept] = Int32(truncatingIfNeeded: holder)
          kept &+= 1
          row = holder &+ 1
          continue
        }
        while position < selection.count && Int(selection.offsets[position]) < holder {
          position &+= 1
        }
        if position < selection.count && Int(selection.offsets[position]) == holder {
          selection.offsets[kept] = selection.offsets[position]
          kept &+= 1
          position &+= 1
        }
      }
      // An occurrence running past the row's end means none lies within it.
      row = holder &+ 1
    }
    selection.count = kept
  }

  /// The row whose bytes hold arena position `hit`: the last row from `row` on (before
  /// `filled`) that starts at or before it (`offsets[row] <= hit`). Gallops from `row`, since
  /// the next occurrence is most often in a row near the last.
  @inline(__always)
  private static func row(
    holding hit: Int, from row: Int, filled: Int, _ offsets: UnsafeMutablePointer<UInt32>
  ) -> Int {
    var low = row
    var step = 1
    // `offsets[low] <= hit` throughout; `high` ends past the last row that starts there.
    while low &+ step < filled && Int(offsets[low &+ step]) <= hit {
      low &+= step
      step &<<= 1
    }
    var high = min(low &+ step, filled)
    while high &- low > 1 {
      let middle = (low &+ high) &>> 1
      if Int(offsets[middle]) <= hit { low = middle } else { high = middle }
    }
    return low
  }

  func count(_ chunk: StringChunk, _ stamps: UnsafeBufferPointer<UInt32>) -> Int {
    guard searchesBytes else { return countTestingEachRow(chunk, stamps) }
    var search = ArenaSearch(chunk: chunk)
    var count = 0
    for offset in 0..<stamps.count where stamps[offset] & 1 != 0 {
      count &+= search.matches(offset, self) ? 1 : 0
    }
    return count
  }
}

/// The rows of one chunk tested in ascending order against a needle whose test on a simple
/// row is a search for its bytes: the arena is searched from a row's first byte only when the
/// occurrence found last lies before it, so a chunk's arena is read about once, whatever the
/// number of rows.
private struct ArenaSearch {
  let chunk: StringChunk
  /// The first occurrence at or after the start of the last row searched from; the arena's
  /// end when there is none.
  private var hit = -1

  init(chunk: StringChunk) { self.chunk = chunk }

  /// Whether `row` matches; rows must come in ascending order.
  @inline(__always)
  mutating func matches(_ row: Int, _ matcher: PatternRow) -> Bool {
    guard !chunk.isNil(row) else { return false }
    guard chunk.isSimple(row) else { return matcher.pattern.matches(chunk, row: row, matcher.op) }
    let (start, length) = chunk.span(row)
    if hit < start {
      hit = matcher.pattern.firstOccurrence(in: chunk, from: start, folded: matcher.folds)
    }
    return hit &+ matcher.pattern.needleCount <= start &+ length
  }
}

/// `==` (or `!=` when not `wantsEqual`) with a constant, `nil` when `pattern` is.
private struct EqualityRow: StringRowMatcher {
  let pattern: StringPattern?
  let wantsEqual: Bool
  @inline(__always) func matches(_ chunk: StringChunk, _ row: Int) -> Bool {
    let equal: Bool
    if chunk.isNil(row) {
      equal = pattern == nil
    } else if let pattern {
      equal = pattern.equals(chunk, row: row)
    } else {
      equal = false
    }
    return equal == wantsEqual
  }
}

/// An ordering of `K` with a constant; `nil` never matches.
private struct OrderingRow<K: OrderingKernel>: StringRowMatcher {
  let pattern: StringPattern
  @inline(__always) func matches(_ chunk: StringChunk, _ row: Int) -> Bool {
    !chunk.isNil(row) && K.matches(pattern.order(chunk, row: row), 0)
  }
}
