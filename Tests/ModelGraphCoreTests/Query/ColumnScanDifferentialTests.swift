import Foundation
import Testing

@testable import ModelGraphCore

/// Comparisons of one column with a constant agree with array filtering in every form they
/// run in: a row test, a chunk refinement, a chunk count and a filter of a row list.
@Suite("Query engine: column comparisons against array filtering")
struct ColumnScanDifferentialTests {
  /// `==` and `!=` of `values` (a column of optionals, and a plain one when there is no `nil`)
  /// with each of `constants`, in every form.
  private func checkEquality<T: QueryScalar>(_ values: [T?], _ constants: [T?], _ label: String)
    throws
  {
    let optional = column(values)
    let plain = values.contains { $0 == nil } ? nil : column(values.map { $0! })
    for constant in constants {
      var conditions: [(String, CompiledCondition, (T?) -> Bool)] = []
      func add<K: EqualityKernel>(_ name: String, _: K.Type, _ expected: @escaping (T?) -> Bool) {
        conditions.append(
          (name, ColumnScan.equality(.optional(optional), constant, K.self), expected))
        if let plain {
          conditions.append(
            (name + " plain", ColumnScan.equality(.plain(plain), constant, K.self), expected))
        }
      }
      add("==", EqualKernel.self) { $0 == constant }
      add("!=", NotEqualKernel.self) { $0 != constant }
      for (name, condition, expected) in conditions {
        try agree(condition, values, expected, "\(label) \(name) \(String(describing: constant))")
      }
    }
  }

  /// The four orderings of `values` with each of `constants`, in every form, and equality.
  private func check<T: QueryScalar & Comparable>(
    _ values: [T?], _ constants: [T?], _ label: String
  ) throws {
    try checkEquality(values, constants, label)
    let optional = column(values)
    let plain = values.contains { $0 == nil } ? nil : column(values.map { $0! })
    for constant in constants.compactMap({ $0 }) {
      var conditions: [(String, CompiledCondition, (T?) -> Bool)] = []
      func add<K: OrderingKernel>(_ name: String, _: K.Type, _ expected: @escaping (T, T) -> Bool) {
        let test: (T?) -> Bool = { $0.map { expected($0, constant) } ?? false }
        conditions.append(
          (name, ColumnScan.ordering(.optional(optional), constant, K.self), test))
        if let plain {
          conditions.append(
            (name + " plain", ColumnScan.ordering(.plain(plain), constant, K.self), test))
        }
      }
      add("<", LessKernel.self, <)
      add("<=", LessOrEqualKernel.self, <=)
      add(">", GreaterKernel.self, >)
      add(">=", GreaterOrEqualKernel.self, >=)
      for (name, condition, expected) in conditions {
        try agree(condition, values, expected, "\(label) \(name) \(constant)")
      }
    }
  }

  /// A column of `values` repeated past one chunk, so every form crosses a chunk boundary.
  private func column<V: ColumnValue>(_ values: [V]) -> Column<V> {
    let column = Column<V>()
    let count = (1 << AnyColumn.chunkShift) + values.count * 3
    column.grow(to: count)
    for row in 0..<count { column[row] = values[row % values.count] }
    return column
  }

  /// Whether every form of `condition` selects the rows whose value `expected` accepts.
  private func agree<T>(
    _ condition: CompiledCondition, _ values: [T?], _ expected: (T?) -> Bool, _ context: String
  ) throws {
    let count = (1 << AnyColumn.chunkShift) + values.count * 3
    let wanted = (0..<count).filter { expected(values[$0 % values.count]) }
    if let constant = condition.constant {
      #expect(wanted.count == (constant ? count : 0), "\(context)")
      return
    }
    #expect((0..<count).filter { condition.test($0) } == wanted, "\(context) test")
    // Every other row, with its neighbours on both sides of the chunk boundary.
    let listed = (0..<count).filter { $0 % 2 == 0 || abs($0 - (1 << AnyColumn.chunkShift)) < 3 }
    var rows = listed.map { Int32($0) }
    let filterRows = try #require(condition.filterRows, "\(context)")
    filterRows(&rows)
    #expect(
      rows.map(Int.init) == listed.filter { expected(values[$0 % values.count]) }, "\(context) rows"
    )
    var all = (0..<count).map { Int32($0) }
    condition.filter(&all)
    #expect(all.map(Int.init) == wanted, "\(context) filter")
    let stamps = [UInt32](repeating: 1, count: 1 << AnyColumn.chunkShift)
    var refined: [Int] = []
    var counted = 0
    let selection = RowSelection()
    for chunk in 0..<((count + (1 << AnyColumn.chunkShift) - 1) >> AnyColumn.chunkShift) {
      let start = chunk << AnyColumn.chunkShift
      let length = min(count - start, 1 << AnyColumn.chunkShift)
      stamps.withUnsafeBufferPointer { all in
        let live = UnsafeBufferPointer(rebasing: all[0..<length])
        selection.selectLive(live, chunkStart: start)
        counted += condition.countChunk?(chunk, live) ?? 0
      }
      condition.narrow(selection)
      _ = selection.forEachRow {
        refined.append($0)
        return true
      }
    }
    #expect(refined == wanted, "\(context) refine")
    #expect(counted == wanted.count, "\(context) count")
  }

  @Test("Int64 at its boundaries, with nil")
  func integers() throws {
    let values: [Int64?] = [0, -1, 1, .min, .max, nil, 42, .min + 1, .max - 1, 7, nil]
    try check(values, [0, .min, .max, 42, -1, 8, nil], "Int64")
    try check(values.filter { $0 != nil }, [0, .min, .max, nil], "Int64 dense")
  }

  @Test("UInt64 at its boundaries, with nil")
  func unsignedIntegers() throws {
    let values: [UInt64?] = [0, 1, .max, .max - 1, nil, 1 << 63, 5]
    try check(values, [0, .max, 1 << 63, 4, nil], "UInt64")
    try check(values.filter { $0 != nil }, [0, .max, 1 << 63], "UInt64 dense")
  }

  @Test("Double with NaN, infinities, signed zeros and extremes, with nil")
  func doubles() throws {
    let values: [Double?] = [
      0, -0.0, .nan, .infinity, -.infinity, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, .leastNonzeroMagnitude, nil, 1.5, -2.25, .nan,
    ]
    let constants: [Double?] = [
      0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 1.5, nil,
    ]
    try check(values, constants, "Double")
    try check(values.filter { $0 != nil }, constants, "Double dense")
  }

  @Test("Date at distant past and future, with nil")
  func dates() throws {
    let epoch = Date(timeIntervalSince1970: 0)
    let values: [Date?] = [
      epoch, .distantPast, .distantFuture, nil, epoch.addingTimeInterval(-1),
      epoch.addingTimeInterval(1e-3), Date(timeIntervalSinceReferenceDate: 0),
    ]
    let constants: [Date?] = [
      epoch, .distantPast, .distantFuture, epoch.addingTimeInterval(1e-3), nil,
    ]
    try check(values, constants, "Date")
    try check(values.filter { $0 != nil }, constants, "Date dense")
  }

  @Test("Bool, with nil")
  func booleans() throws {
    let values: [Bool?] = [true, false, nil, true, true, false]
    try checkEquality(values, [true, false, nil], "Bool")
    try checkEquality(values.filter { $0 != nil }, [true, false, nil], "Bool dense")
  }

  @Test("UUID, with nil")
  func uuids() throws {
    let low = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    let high = UUID(
      uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
    let middle = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    let values: [UUID?] = [low, high, middle, nil, middle, low]
    try checkEquality(values, [low, high, middle, UUID(), nil], "UUID")
    try checkEquality(values.filter { $0 != nil }, [low, middle, nil], "UUID dense")
  }
}
