import Foundation

/// A storage type an index can hold: totally ordered the way queries sort it.
///
/// The order is Swift's `<` (`false` before `true` for `Bool`), with `nil` first, as
/// Foundation's `SortDescriptor` orders optional values, and a `Double` NaN (or a `Date` whose
/// interval is NaN) next, after `nil` and before every number or date, so NaN keys sit together
/// where a bounded range reaches them only as a block of their own (see
/// ``KeyRange/includesUnmatched``).
protocol IndexKey: ColumnValue {
  /// Whether `lhs` sorts before `rhs`.
  static func precedes(_ lhs: Self, _ rhs: Self) -> Bool
  /// The greatest key that no comparison with a bound matches: `nil` for an optional type,
  /// NaN for `Double` and `Date` (`Double?` has both: NaN is the greater); `nil` when the type
  /// has none.
  static var unmatchedKey: Self? { get }
  /// Whether ``unmatchedKey`` meets every inclusive bound (`>=` and `<=` hold for it, on
  /// either side): true for `Date`, whose `>=` and `<=` Swift derives as `!(a < b)`, which
  /// holds when either interval is NaN; false for `Double`, whose `>=` and `<=` are IEEE's.
  static var unmatchedMeetsInclusiveBounds: Bool { get }
}

extension IndexKey {
  static var unmatchedMeetsInclusiveBounds: Bool { false }
}

extension IndexKey where Self: Comparable {
  @inline(__always) static func precedes(_ lhs: Self, _ rhs: Self) -> Bool { lhs < rhs }
  static var unmatchedKey: Self? { nil }
}

extension Int64: IndexKey {}
extension UInt64: IndexKey {}

extension Double: IndexKey {
  /// `<`, with NaN before every number (and equal to NaN): a total order.
  @inline(__always) static func precedes(_ lhs: Double, _ rhs: Double) -> Bool {
    lhs < rhs || (lhs.isNaN && !rhs.isNaN)
  }
  static var unmatchedKey: Double? { .nan }
}

extension Date: IndexKey {
  /// `<`, with a NaN interval before every date (and equal to NaN), as `Double` orders.
  @inline(__always) static func precedes(_ lhs: Date, _ rhs: Date) -> Bool {
    Double.precedes(lhs.timeIntervalSinceReferenceDate, rhs.timeIntervalSinceReferenceDate)
  }
  static var unmatchedKey: Date? { Date(timeIntervalSinceReferenceDate: .nan) }
  static var unmatchedMeetsInclusiveBounds: Bool { true }
}

extension String: IndexKey {}
extension UUID: IndexKey {}
extension Decimal: IndexKey {}

extension Bool: IndexKey {
  @inline(__always) static func precedes(_ lhs: Bool, _ rhs: Bool) -> Bool { !lhs && rhs }
  static var unmatchedKey: Bool? { nil }
}

extension Optional: IndexKey where Wrapped: IndexKey {
  @inline(__always) static func precedes(_ lhs: Wrapped?, _ rhs: Wrapped?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): false
    case (nil, _): true
    case (_, nil): false
    case (let lhs?, let rhs?): Wrapped.precedes(lhs, rhs)
    }
  }
  static var unmatchedKey: Wrapped?? { .some(Wrapped.unmatchedKey) }
  static var unmatchedMeetsInclusiveBounds: Bool { Wrapped.unmatchedMeetsInclusiveBounds }
}

/// Generic work over an index's key type, run by a `switch` so every call is specialized.
protocol IndexKeyVisitor {
  associatedtype Result
  func visit<Key: IndexKey>(_ type: Key.Type) throws -> Result
}

extension AttributeDescription {
  /// Runs `visitor` with the attribute's storage type; `nil` when it cannot be indexed
  /// (arrays, URLs, data and composite values).
  func visitIndexKey<V: IndexKeyVisitor>(_ visitor: V) throws -> V.Result? {
    switch (valueType, isOptional) {
    case (.bool, false): try visitor.visit(Bool.self)
    case (.bool, true): try visitor.visit(Bool?.self)
    case (.int, false): try visitor.visit(Int64.self)
    case (.int, true): try visitor.visit(Int64?.self)
    case (.uint, false): try visitor.visit(UInt64.self)
    case (.uint, true): try visitor.visit(UInt64?.self)
    case (.double, false): try visitor.visit(Double.self)
    case (.double, true): try visitor.visit(Double?.self)
    case (.string, false): try visitor.visit(String.self)
    case (.string, true): try visitor.visit(String?.self)
    case (.date, false): try visitor.visit(Date.self)
    case (.date, true): try visitor.visit(Date?.self)
    case (.uuid, false): try visitor.visit(UUID.self)
    case (.uuid, true): try visitor.visit(UUID?.self)
    case (.decimal, false): try visitor.visit(Decimal.self)
    case (.decimal, true): try visitor.visit(Decimal?.self)
    default: nil
    }
  }

  /// Whether an index can hold the attribute's values: numbers, strings, dates, UUIDs,
  /// decimals and Booleans, optional or not.
  public var isIndexable: Bool {
    struct Probe: IndexKeyVisitor {
      func visit<Key: IndexKey>(_: Key.Type) -> Bool { true }
    }
    return (try? visitIndexKey(Probe())) == true
  }
}
