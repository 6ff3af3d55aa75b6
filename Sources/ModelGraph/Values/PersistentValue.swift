public import ModelGraphCore

/// A Swift type that can be the type of an `@Attribute` property.
///
/// Conforming types map to one of the engine's storage types: `Bool`, the integer types,
/// `Double`, `Float`, `String`, `Date`, `UUID`, `URL`, `Data` and `Decimal` conform already, as
/// do optionals, arrays and sets of conforming types. Any other `Codable` type can be an
/// attribute's type without a conformance, stored encoded as JSON. A conformance with no
/// members is an optional fast path:
/// - an enum with a raw value of a conforming type (`enum Reason: Int, PersistentValue`) is
///   stored as its raw value, which predicates compare and order in the engine;
/// - a `Codable` struct, through ``CompositeValue`` (`struct Address: CompositeValue`), is
///   stored encoded as one composite value, as without the conformance.
public protocol PersistentValue {
  /// The engine's storage representation.
  associatedtype Stored: ColumnValue
  /// The storage type of the attribute (of the wrapped type, for an optional).
  static var valueType: ValueType { get }
  /// Whether the type is an optional (its attribute may hold `nil`).
  static var isOptionalValue: Bool { get }
  /// A value of the type used when a key path is resolved on a probe object; never stored.
  static var probeValue: Self { get }
  /// Converts from the storage representation.
  static func fromStored(_ stored: Stored) -> Self
  /// Converts from the storage representation, or `nil` when the stored value is no value of
  /// this type: one written by another version of the type (an enum case since removed, a
  /// `Codable` shape since changed, an integer wider than the type now declared).
  static func _fromStoredIfValid(_ stored: Stored) -> Self?
  /// Why `stored` is no value of this type, naming the value; asked only after
  /// ``_fromStoredIfValid(_:)`` returned `nil`.
  static func _storedValueProblem(_ stored: Stored) -> String
  /// The integer type narrower than 64 bits whose values the type stores (`Int8` for `Int8`,
  /// `Int8?`, `[Int8]` and an enum with `Int8` raw values), or `nil`.
  static var _integerWidth: QueryIntegerWidth? { get }
  /// Whether the type stores `Float`s as `Double`s (`Float`, `Float?`, `[Float]` and an enum
  /// with `Float` raw values).
  static var _isFloat32: Bool { get }
  /// The storage representation.
  var stored: Stored { get }
  /// Moves the `Self?` at `address` (an attribute wrapper's value of an object without a row)
  /// into `row` of `column` (a column of `Stored`), leaving `nil`.
  ///
  /// - Returns: `false` when there was no value.
  static func _moveStored(from address: UnsafeMutableRawPointer, into column: AnyColumn, row: Int)
    -> Bool
}

extension PersistentValue {
  /// Moves the value into the column; a requirement so each type runs code specialized for it.
  @inlinable
  public static func _moveStored(
    from address: UnsafeMutableRawPointer, into column: AnyColumn, row: Int
  ) -> Bool {
    let slot = address.assumingMemoryBound(to: Self?.self)
    guard let value = slot.move() else {
      slot.initialize(to: nil)
      return false
    }
    slot.initialize(to: nil)
    unsafeDowncast(column, to: Column<Stored>.self)[row] = value.stored
    return true
  }

  /// `false`: only `Optional` is optional.
  public static var isOptionalValue: Bool { false }
  /// `nil`: the type stores no narrower integers.
  public static var _integerWidth: QueryIntegerWidth? { nil }
  /// `false`: the type stores no `Float`s.
  public static var _isFloat32: Bool { false }
  /// The value converted from the storage type's placeholder.
  public static var probeValue: Self { fromStored(Stored.placeholder) }
}

extension PersistentValue where Stored == Self {
  /// The value itself.
  @inlinable public static func fromStored(_ stored: Self) -> Self { stored }
  /// The value itself.
  @inlinable public var stored: Self { self }
}

extension Bool: PersistentValue {
  /// ``ValueType/bool``.
  public static var valueType: ValueType { .bool }
}

extension Double: PersistentValue {
  /// ``ValueType/double``.
  public static var valueType: ValueType { .double }
}

extension String: PersistentValue {
  /// ``ValueType/string``.
  public static var valueType: ValueType { .string }
}

extension Date: PersistentValue {
  /// ``ValueType/date``.
  public static var valueType: ValueType { .date }
}

extension UUID: PersistentValue {
  /// ``ValueType/uuid``.
  public static var valueType: ValueType { .uuid }
}

extension URL: PersistentValue {
  /// ``ValueType/url``.
  public static var valueType: ValueType { .url }
}

extension Data: PersistentValue {
  /// ``ValueType/data``.
  public static var valueType: ValueType { .data }
}

extension Decimal: PersistentValue {
  /// ``ValueType/decimal``.
  public static var valueType: ValueType { .decimal }
}

extension Float: PersistentValue {
  /// ``ValueType/double``: a `Float` is stored as a `Double`, exactly.
  public static var valueType: ValueType { .double }
  /// `true`: the engine keeps the stored `Double`s `Float` values.
  public static var _isFloat32: Bool { true }
  /// Narrows the stored `Double`.
  @inlinable public static func fromStored(_ stored: Double) -> Float { Float(stored) }
  /// The value widened to `Double`.
  @inlinable public var stored: Double { Double(self) }
}

extension Optional: PersistentValue where Wrapped: PersistentValue {
  /// The wrapped type's storage type.
  public static var valueType: ValueType { Wrapped.valueType }
  /// `true`.
  public static var isOptionalValue: Bool { true }
  /// `nil`.
  public static var probeValue: Wrapped? { nil }
  /// The wrapped type's.
  public static var _integerWidth: QueryIntegerWidth? { Wrapped._integerWidth }
  /// The wrapped type's.
  public static var _isFloat32: Bool { Wrapped._isFloat32 }
  /// Converts a stored optional.
  @inlinable public static func fromStored(_ stored: Wrapped.Stored?) -> Wrapped? {
    stored.map(Wrapped.fromStored)
  }
  /// The wrapped value's storage representation, or `nil`.
  @inlinable public var stored: Wrapped.Stored? { self?.stored }
}

extension Array: PersistentValue where Element: PersistentValue {
  /// An array of the element's storage type.
  public static var valueType: ValueType { .array(Element.valueType) }
  /// The empty array.
  public static var probeValue: [Element] { [] }
  /// The element type's.
  public static var _integerWidth: QueryIntegerWidth? { Element._integerWidth }
  /// The element type's.
  public static var _isFloat32: Bool { Element._isFloat32 }
  /// Converts each stored element; the stored array itself, without a copy, when the element
  /// is its own storage type (`[String]`, `[Int64]`, …).
  @inlinable public static func fromStored(_ stored: [Element.Stored]) -> [Element] {
    if Element.self == Element.Stored.self { return unsafeBitCast(stored, to: [Element].self) }
    return stored.map(Element.fromStored)
  }
  /// Each element's storage representation; the array itself, sharing its storage, when the
  /// element is its own storage type.
  @inlinable public var stored: [Element.Stored] {
    if Element.self == Element.Stored.self { return unsafeBitCast(self, to: [Element.Stored].self) }
    return map { $0.stored }
  }
}
