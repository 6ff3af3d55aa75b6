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
        let chunk = strings.chunk(selection.chunkStart &>> AnyColumn.chunkShift)
        selection.keep { matcher.matches(chunk, $0) }
      },
      countChunk: { index, stamps in
        let chunk = strings.chunk(index)
        var count = 0
        for offset in 0..<stamps.count where stamps[offset] & 1 != 0 {
          count &+= matcher.matches(chunk, offset) ? 1 : 0
        }
        return count
      })
  }
}

/// A test of one row of a string chunk, as a type so the scan loops specialize and inline it.
private protocol StringRowMatcher {
  func matches(_ chunk: StringChunk, _ row: Int) -> Bool
}

/// A ``QueryStringOperator`` test; `nil` never matches.
private struct PatternRow: StringRowMatcher {
  let pattern: StringPattern
  let op: QueryStringOperator
  @inline(__always) func matches(_ chunk: StringChunk, _ row: Int) -> Bool {
    !chunk.isNil(row) && pattern.matches(chunk, row: row, op)
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
