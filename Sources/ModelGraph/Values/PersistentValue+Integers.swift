public import ModelGraphCore

/// A signed integer type stored as a 64-bit integer.
public protocol _SignedPersistentInteger: FixedWidthInteger, SignedInteger, PersistentValue
where Stored == Int64 {}

extension _SignedPersistentInteger {
  /// ``ValueType/int``.
  public static var valueType: ValueType { .int }
  /// The type, when narrower than 64 bits.
  public static var _integerWidth: QueryIntegerWidth? { PredicateValueTypes.narrowWidth(Self.self) }
  /// Narrows the stored value; a value out of range traps. The engine refuses to save one
  /// and a container to open a store holding one; reads check it first
  /// (``_fromStoredIfValid(_:)``).
  @inlinable public static func fromStored(_ stored: Int64) -> Self { Self(stored) }
  /// The value widened to 64 bits.
  @inlinable public var stored: Int64 { Int64(self) }
}

/// An unsigned integer type stored as a 64-bit unsigned integer.
public protocol _UnsignedPersistentInteger: FixedWidthInteger, UnsignedInteger, PersistentValue
where Stored == UInt64 {}

extension _UnsignedPersistentInteger {
  /// ``ValueType/uint``.
  public static var valueType: ValueType { .uint }
  /// The type, when narrower than 64 bits.
  public static var _integerWidth: QueryIntegerWidth? { PredicateValueTypes.narrowWidth(Self.self) }
  /// Narrows the stored value; a value out of range traps. The engine refuses to save one
  /// and a container to open a store holding one; reads check it first
  /// (``_fromStoredIfValid(_:)``).
  @inlinable public static func fromStored(_ stored: UInt64) -> Self { Self(stored) }
  /// The value widened to 64 bits.
  @inlinable public var stored: UInt64 { UInt64(self) }
}

extension Int: _SignedPersistentInteger {}
extension Int8: _SignedPersistentInteger {}
extension Int16: _SignedPersistentInteger {}
extension Int32: _SignedPersistentInteger {}
extension Int64: _SignedPersistentInteger {}
extension UInt: _UnsignedPersistentInteger {}
extension UInt8: _UnsignedPersistentInteger {}
extension UInt16: _UnsignedPersistentInteger {}
extension UInt32: _UnsignedPersistentInteger {}
extension UInt64: _UnsignedPersistentInteger {}
