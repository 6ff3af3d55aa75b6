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
  /// Whether the type has radix keys (``radixKey(_:)``), so that an index build sorts its
  /// entries with ``RadixEntrySort``.
  static var hasRadixKey: Bool { get }
  /// Whether no key's ``radixKey(_:)`` is 0, which an optional of the type then gives `nil`.
  static var radixKeyLeavesZero: Bool { get }
  /// `key` as an unsigned integer that orders as ``precedes(_:_:)`` does: keys neither of
  /// which precedes the other give the same integer. Only when ``hasRadixKey``.
  static func radixKey(_ key: Self) -> UInt64
}

extension IndexKey {
  static var unmatchedMeetsInclusiveBounds: Bool { false }
  static var hasRadixKey: Bool { false }
  static var radixKeyLeavesZero: Bool { false }
  static func radixKey(_ key: Self) -> UInt64 { 0 }
}

extension IndexKey where Self: Comparable {
  @inline(__always) static func precedes(_ lhs: Self, _ rhs: Self) -> Bool { lhs < rhs }
  static var unmatchedKey: Self? { nil }
}

extension Int64: IndexKey {
  static var hasRadixKey: Bool { true }
  /// The bits with the sign flipped: negative numbers first.
  @inline(__always) static func radixKey(_ key: Int64) -> UInt64 {
    UInt64(bitPattern: key) ^ (1 &<< 63)
  }
}

extension UInt64: IndexKey {
  static var hasRadixKey: Bool { true }
  @inline(__always) static func radixKey(_ key: UInt64) -> UInt64 { key }
}

extension Double: IndexKey {
  /// `<`, with NaN before every number (and equal to NaN): a total order.
  @inline(__always) static func precedes(_ lhs: Double, _ rhs: Double) -> Bool {
    lhs < rhs || (lhs.isNaN && !rhs.isNaN)
  }
  static var unmatchedKey: Double? { .nan }
  static var hasRadixKey: Bool { true }
  static var radixKeyLeavesZero: Bool { true }
  /// 1 for every NaN; a number's bits with the sign bit set, or every bit flipped for a
  /// negative number, so that the integers order as the numbers do (`-0.0` as `0.0`), all
  /// above 1.
  @inline(__always) static func radixKey(_ key: Double) -> UInt64 {
    if key.isNaN { return 1 }
    let bits = (key == 0 ? 0.0 : key).bitPattern
    return bits & (1 &<< 63) != 0 ? ~bits : bits | (1 &<< 63)
  }
}

extension Date: IndexKey {
  /// `<`, with a NaN interval before every date (and equal to NaN), as `Double` orders.
  @inline(__always) static func precedes(_ lhs: Date, _ rhs: Date) -> Bool {
    Double.precedes(lhs.timeIntervalSinceReferenceDate, rhs.timeIntervalSinceReferenceDate)
  }
  static var unmatchedKey: Date? { Date(timeIntervalSinceReferenceDate: .nan) }
  static var unmatchedMeetsInclusiveBounds: Bool { true }
  static var hasRadixKey: Bool { true }
  static var radixKeyLeavesZero: Bool { true }
  @inline(__always) static func radixKey(_ key: Date) -> UInt64 {
    Double.radixKey(key.timeIntervalSinceReferenceDate)
  }
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
  /// When the wrapped type's radix keys leave 0 for `nil`.
  static var hasRadixKey: Bool { Wrapped.hasRadixKey && Wrapped.radixKeyLeavesZero }
  /// 0 for `nil`, before every value.
  @inline(__always) static func radixKey(_ key: Wrapped?) -> UInt64 {
    key.map(Wrapped.radixKey) ?? 0
  }
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
