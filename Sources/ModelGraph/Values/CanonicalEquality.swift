import Foundation

/// Which `Codable` attribute types the engine can compare with `==` by their stored bytes.
///
/// A `Codable` value without a ``PersistentValue`` conformance is stored as JSON. Comparing
/// the bytes is Swift's `==` only when two values are `==` exactly when their encodings are
/// equal. That holds, with the encoding made canonical by ``canonicalJSON(_:)``, for values
/// built from `String`, `Bool`, the integer types and `UUID` through arrays, dictionaries keyed
/// by `String` or `Int`, and single optionals. It does not hold, so a predicate's `==` on such
/// a type stays with Foundation, for:
/// - floating-point numbers and dates: `-0.0 == 0.0` but they encode as `-0` and `0`, and
///   `nan != nan`;
/// - nested optionals: `.some(nil)` and `nil` both encode as `null`;
/// - sets and dictionaries with other keys: their elements are written in iteration order;
/// - structs, enums and classes: their `==` may be custom (a case-insensitive name, a field
///   left out), which no run-time check can rule out; a struct or enum declared
///   ``MemberwiseEquatable`` is accepted when its stored properties are.
enum CanonicalEquality {
  private struct Answer: Sendable {
    let isProvable: Bool
  }

  private static let cache = ThreadCache<ObjectIdentifier, Answer>()

  /// Whether `==` on values of `type` is equality of their canonical JSON.
  static func isProvable(_ type: Any.Type) -> Bool {
    cache.value(for: ObjectIdentifier(type)) { Answer(isProvable: check(type)) }.isProvable
  }

  /// Whether `type` is stored as JSON (it is `Codable` and not a ``PersistentValue``), after
  /// unwrapping one optional (an attribute's own).
  static func isStoredAsJSON(_ type: Any.Type) -> Bool {
    // Identifiers and model objects are Codable too, but compared by key.
    if PredicateValueTypes.isEquatable(type) { return false }
    let wrapped = PredicateValueTypes.unwrapped(type)
    return !(wrapped is any PersistentValue.Type) && wrapped is any Codable.Type
  }

  private static func check(_ type: Any.Type) -> Bool {
    if scalars.contains(ObjectIdentifier(type)) { return true }
    if let optional = type as? any _OptionalType.Type {
      return !(optional.wrappedType is any _OptionalType.Type) && isProvable(optional.wrappedType)
    }
    if type is any _SetType.Type { return false }
    if let array = type as? any _ArrayType.Type { return isProvable(array.elementType) }
    if let dictionary = type as? any _DictionaryType.Type {
      return (dictionary.keyType == String.self || dictionary.keyType == Int.self)
        && isProvable(dictionary.valueType)
    }
    if let memberwise = type as? any MemberwiseEquatable.Type {
      return fieldsAreProvable(memberwise)
    }
    return false
  }

  /// Whether every stored property of a value of `type` built from zeros is of a type this
  /// accepts (for an enum, the associated values of the case that value has).
  private static func fieldsAreProvable<Value: MemberwiseEquatable>(_: Value.Type) -> Bool {
    guard !(Value.self is AnyClass), let probe = try? Value(from: ZeroDecoder()) else {
      return false
    }
    let mirror = Mirror(reflecting: probe)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .enum else { return false }
    return mirror.children.allSatisfy { child in
      // An enum case's payload shows as one child, a tuple when it has several values.
      let payload = Mirror(reflecting: child.value)
      if mirror.displayStyle == .enum && payload.displayStyle == .tuple {
        return payload.children.allSatisfy { isProvable(Swift.type(of: $0.value)) }
      }
      return isProvable(Swift.type(of: child.value))
    }
  }

  private static let scalars: Set<ObjectIdentifier> = Set(
    [
      String.self, Bool.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self,
      UInt8.self, UInt16.self, UInt32.self, UInt64.self, UUID.self,
    ].map { ObjectIdentifier($0) })
}

/// `Dictionary`, seen as a type.
protocol _DictionaryType {
  static var keyType: Any.Type { get }
  static var valueType: Any.Type { get }
}

extension Dictionary: _DictionaryType {
  static var keyType: Any.Type { Key.self }
  static var valueType: Any.Type { Value.self }
}
