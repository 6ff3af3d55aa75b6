import Foundation
import ModelGraphCore

/// Which Swift types the engine compares, orders and computes exactly as Swift does.
///
/// The engine works on stored forms: an enum is its raw value, a `Float` a `Double`, a `Int16`
/// an `Int64`. Equality of stored forms is Swift's for every attribute type but composite
/// values; order is Swift's only for numbers, strings, dates, UUIDs and decimals (an enum's
/// `Comparable` order is its declaration order, not its raw values'); arithmetic is Swift's
/// at full width, and on narrower integers through ``QueryExpression/narrow(_:_:)``.
enum PredicateValueTypes {
  /// Whether `==` on the stored forms of `type` is Swift's `==`.
  static func isEquatable(_ type: Any.Type) -> Bool {
    let type = unwrapped(type)
    if type is ModelObject.Type || type == ComparisonResult.self
      || type == PersistentIdentifier.self
    {
      return true
    }
    // A set's stored form is a sorted array, which the engine does not compare with `==`:
    // refused here, so only the conjunct that compares it goes to Foundation.
    if type is any CompositeValue.Type || type is any _SetType.Type { return false }
    if let array = type as? any _ArrayType.Type { return isScalar(array.elementType) }
    return type is any PersistentValue.Type
  }

  /// Whether `<` on the stored forms of `type` is Swift's `<`.
  static func isOrderable(_ type: Any.Type) -> Bool {
    orderable.contains(ObjectIdentifier(type)) || type == ComparisonResult.self
  }

  /// Whether arithmetic on the stored forms of `type` is Swift's.
  static func supportsArithmetic(_ type: Any.Type) -> Bool {
    arithmetic.contains(ObjectIdentifier(type))
  }

  /// The engine's name for `type` when it is an integer type narrower than 64 bits, whose
  /// arithmetic the engine computes as on that type (``QueryExpression/narrow(_:_:)``).
  static func narrowWidth(_ type: Any.Type) -> QueryIntegerWidth? {
    narrow[ObjectIdentifier(type)]
  }

  /// `Wrapped` for `Optional<Wrapped>`, else `type`.
  static func unwrapped(_ type: Any.Type) -> Any.Type {
    (type as? any _OptionalType.Type)?.wrappedType ?? type
  }

  private static func isScalar(_ type: Any.Type) -> Bool {
    type is any PersistentValue.Type && !(type is any CompositeValue.Type)
      && !(type is any _ArrayType.Type)
  }

  private static let orderable: Set<ObjectIdentifier> = Set(
    [
      Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self,
      UInt32.self, UInt64.self, Double.self, Float.self, String.self, Date.self, UUID.self,
      Decimal.self,
    ].map { ObjectIdentifier($0) })

  private static let narrow: [ObjectIdentifier: QueryIntegerWidth] = [
    ObjectIdentifier(Int8.self): .int8, ObjectIdentifier(Int16.self): .int16,
    ObjectIdentifier(Int32.self): .int32, ObjectIdentifier(UInt8.self): .uint8,
    ObjectIdentifier(UInt16.self): .uint16, ObjectIdentifier(UInt32.self): .uint32,
  ]

  private static let arithmetic: Set<ObjectIdentifier> = Set(
    [Int.self, Int64.self, UInt.self, UInt64.self, Double.self, Decimal.self].map {
      ObjectIdentifier($0)
    })
}

/// `Optional`, seen as a type.
protocol _OptionalType {
  static var wrappedType: Any.Type { get }
}

extension Optional: _OptionalType {
  static var wrappedType: Any.Type { Wrapped.self }
}

/// `Array`, seen as a type, with the key paths a predicate reads on it.
protocol _ArrayType {
  static var elementType: Any.Type { get }
  static var countKeyPath: AnyKeyPath { get }
  static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: _ArrayType {
  static var elementType: Any.Type { Element.self }
  static var countKeyPath: AnyKeyPath { \[Element].count }
  static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}

/// `Set`, seen as a type: stored as an array, so a predicate reads its count as an array's.
protocol _SetType: _ArrayType {}

extension Set: _SetType {
  static var elementType: Any.Type { Element.self }
  static var countKeyPath: AnyKeyPath { \Set<Element>.count }
  static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}
