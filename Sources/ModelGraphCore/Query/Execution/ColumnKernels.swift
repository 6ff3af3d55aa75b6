/// A comparison of a value with a constant, as a type so generic scans specialize on it.
protocol EqualityKernel {
  static func matches<T: Equatable>(_ value: T, _ constant: T) -> Bool
}

/// An ordering comparison of a value with a constant.
protocol OrderingKernel {
  static func matches<T: Comparable>(_ value: T, _ constant: T) -> Bool
}

enum EqualKernel: EqualityKernel, OrderingKernel {
  @inline(__always) static func matches<T: Equatable>(_ value: T, _ constant: T) -> Bool {
    value == constant
  }
}

enum NotEqualKernel: EqualityKernel, OrderingKernel {
  @inline(__always) static func matches<T: Equatable>(_ value: T, _ constant: T) -> Bool {
    value != constant
  }
}

enum LessKernel: OrderingKernel {
  @inline(__always) static func matches<T: Comparable>(_ value: T, _ constant: T) -> Bool {
    value < constant
  }
}

enum LessOrEqualKernel: OrderingKernel {
  @inline(__always) static func matches<T: Comparable>(_ value: T, _ constant: T) -> Bool {
    value <= constant
  }
}

enum GreaterKernel: OrderingKernel {
  @inline(__always) static func matches<T: Comparable>(_ value: T, _ constant: T) -> Bool {
    value > constant
  }
}

enum GreaterOrEqualKernel: OrderingKernel {
  @inline(__always) static func matches<T: Comparable>(_ value: T, _ constant: T) -> Bool {
    value >= constant
  }
}

extension EqualityKernel {
  /// Equality with Swift's `Optional` semantics (`nil == nil`).
  @inline(__always) static func matchesOptional<T: Equatable>(_ value: T?, _ constant: T?)
    -> Bool
  {
    matches(value, constant)
  }
}

/// A test of one column value, as a type so the scan loops specialize and inline it.
protocol ValueMatcher {
  associatedtype Element: ColumnValue
  func matches(_ value: Element) -> Bool
}

/// `value <op> constant` for a non-optional value.
struct EqualityMatcher<T: Equatable & ColumnValue, K: EqualityKernel>: ValueMatcher {
  let constant: T
  @inline(__always) func matches(_ value: T) -> Bool { K.matches(value, constant) }
}

/// `value <op> constant` with `Optional` equality.
struct OptionalEqualityMatcher<T: Equatable & ColumnValue, K: EqualityKernel>: ValueMatcher {
  let constant: T?
  @inline(__always) func matches(_ value: T?) -> Bool { K.matches(value, constant) }
}

/// `value <op> constant` for a non-optional ordered value.
struct OrderingMatcher<T: Comparable & ColumnValue, K: OrderingKernel>: ValueMatcher {
  let constant: T
  @inline(__always) func matches(_ value: T) -> Bool { K.matches(value, constant) }
}

/// `value <op> constant` for an optional ordered value; `nil` never matches.
struct OptionalOrderingMatcher<T: Comparable & ColumnValue, K: OrderingKernel>: ValueMatcher {
  let constant: T
  @inline(__always) func matches(_ value: T?) -> Bool {
    guard let value else { return false }
    return K.matches(value, constant)
  }
}

/// Conditions that compare one column of the tested object with a constant, chunk by chunk.
enum ColumnScan {
  /// `column == constant` (or `!=`) for an equatable column.
  static func equality<T: QueryScalar, K: EqualityKernel>(
    _ column: DirectColumn<T>, _ constant: T?, _: K.Type
  ) -> CompiledCondition {
    if T.self == String.self, let bytes = StringScan.equality(column, constant, K.self) {
      return bytes
    }
    switch column {
    case .plain(let column):
      guard let constant else {
        // A non-optional value never equals nil.
        return CompiledCondition(constant: K.matches(0, 1))
      }
      return make(column, EqualityMatcher<T, K>(constant: constant))
    case .optional(let column):
      return make(column, OptionalEqualityMatcher<T, K>(constant: constant))
    }
  }

  /// `column < constant` and the other orderings; `nil` values never satisfy them.
  static func ordering<T: QueryScalar & Comparable, K: OrderingKernel>(
    _ column: DirectColumn<T>, _ constant: T, _: K.Type
  ) -> CompiledCondition {
    if T.self == String.self, let bytes = StringScan.ordering(column, constant, K.self) {
      return bytes
    }
    switch column {
    case .plain(let column): return make(column, OrderingMatcher<T, K>(constant: constant))
    case .optional(let column):
      return make(column, OptionalOrderingMatcher<T, K>(constant: constant))
    }
  }

  /// A condition testing each value of `column` with `matcher`, inlined into the scan loops.
  static func make<M: ValueMatcher>(_ column: Column<M.Element>, _ matcher: M)
    -> CompiledCondition
  {
    if M.Element.storesUTF8 {
      // Strings are decoded row by row from their arena (see StringScan), not chunk by chunk.
      return CompiledCondition(
        test: { matcher.matches(column[$0]) },
        refine: { selection in selection.keepRows { matcher.matches(column[$0]) } })
    }
    return CompiledCondition(
      test: { matcher.matches(column[$0]) },
      refine: { selection in
        column.withChunk(selection.chunkStart &>> AnyColumn.chunkShift) { values in
          selection.keep { matcher.matches(values[$0]) }
        }
      },
      countChunk: { chunk, stamps in
        column.withChunk(chunk) { values in
          var count = 0
          for index in 0..<min(values.count, stamps.count) {
            count &+= Int(stamps[index] & 1) & (matcher.matches(values[index]) ? 1 : 0)
          }
          return count
        }
      },
      filterRows: { rows in filter(&rows, column, matcher) })
  }

  /// Keeps the rows of `rows` whose value in `column` `matcher` accepts, in order: one loop
  /// over the rows with the test inlined, writing the kept rows over the list.
  static func filter<M: ValueMatcher>(
    _ rows: inout [Int32], _ column: Column<M.Element>, _ matcher: M
  ) {
    let count = rows.count
    let kept = rows.withUnsafeMutableBufferPointer { rows in
      var kept = 0
      for position in 0..<count {
        let row = rows[position]
        rows[kept] = row
        if matcher.matches(column[Int(row)]) { kept &+= 1 }
      }
      return kept
    }
    rows.removeLast(count - kept)
  }
}
