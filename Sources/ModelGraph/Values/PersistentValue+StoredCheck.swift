import Foundation
import ModelGraphCore

// Checked conversions from the storage representation. A store written by another version of a
// value type can hold a value the type declared now has no value for; reading an attribute
// cannot throw, so the read stops with ``_storedValueMismatch(_:slot:row:problem:)`` naming
// the class, the property and the value, and ``ModelContext/validateStoredValues()`` finds
// such values without stopping.

extension PersistentValue {
  /// The converted value: the conversion of every type whose stored values are all valid.
  @inlinable public static func _fromStoredIfValid(_ stored: Stored) -> Self? {
    fromStored(stored)
  }

  /// The stored value, which is no value of the type.
  public static func _storedValueProblem(_ stored: Stored) -> String {
    "\(describeStored(stored)) is no \(Self.self)"
  }
}

extension _SignedPersistentInteger {
  /// The stored value, when the type can represent it.
  @inlinable public static func _fromStoredIfValid(_ stored: Int64) -> Self? {
    Self(exactly: stored)
  }

  /// The stored value is out of the type's range.
  public static func _storedValueProblem(_ stored: Int64) -> String {
    "\(stored) is out of the range of \(Self.self)"
  }
}

extension _UnsignedPersistentInteger {
  /// The stored value, when the type can represent it.
  @inlinable public static func _fromStoredIfValid(_ stored: UInt64) -> Self? {
    Self(exactly: stored)
  }

  /// The stored value is out of the type's range.
  public static func _storedValueProblem(_ stored: UInt64) -> String {
    "\(stored) is out of the range of \(Self.self)"
  }
}

extension Optional where Wrapped: PersistentValue {
  /// `nil`, or the wrapped type's checked conversion.
  @inlinable public static func _fromStoredIfValid(_ stored: Wrapped.Stored?) -> Wrapped?? {
    guard let stored else { return .some(nil) }
    return Wrapped._fromStoredIfValid(stored).map { .some($0) }
  }

  /// The wrapped type's problem.
  public static func _storedValueProblem(_ stored: Wrapped.Stored?) -> String {
    stored.map(Wrapped._storedValueProblem) ?? "nil is no \(Wrapped.self)"
  }
}

extension Array where Element: PersistentValue {
  /// Each element's checked conversion; `nil` when one fails.
  @inlinable public static func _fromStoredIfValid(_ stored: [Element.Stored]) -> [Element]? {
    if Element.self == Element.Stored.self { return unsafeBitCast(stored, to: [Element].self) }
    return checkedElements(stored)
  }

  /// The problem of the first element that fails.
  public static func _storedValueProblem(_ stored: [Element.Stored]) -> String {
    elementProblem(stored, Element.self)
  }
}

extension Set where Element: PersistentValue {
  /// Each element's checked conversion; `nil` when one fails.
  public static func _fromStoredIfValid(_ stored: [Element.Stored]) -> Set<Element>? {
    guard let elements: [Element] = checkedElements(stored) else { return nil }
    return Set(elements)
  }

  /// The problem of the first element that fails.
  public static func _storedValueProblem(_ stored: [Element.Stored]) -> String {
    elementProblem(stored, Element.self)
  }
}

extension PersistentValue where Self: RawRepresentable, RawValue: PersistentValue {
  /// The case with the stored raw value, or `nil` when no case has it.
  @inlinable public static func _fromStoredIfValid(_ stored: RawValue.Stored) -> Self? {
    RawValue._fromStoredIfValid(stored).flatMap(Self.init(rawValue:))
  }

  /// No case has the stored raw value.
  public static func _storedValueProblem(_ stored: RawValue.Stored) -> String {
    guard let raw = RawValue._fromStoredIfValid(stored) else {
      return RawValue._storedValueProblem(stored)
    }
    return "no case of \(Self.self) has the raw value \(describeStored(raw.stored))"
  }
}

extension CompositeValue {
  /// The decoded value, or `nil` when the bytes do not decode as the type.
  public static func _fromStoredIfValid(_ stored: Data) -> Self? {
    try? decodeStoredChecked(stored, Self.self)
  }

  /// The stored JSON and the decoding error.
  public static func _storedValueProblem(_ stored: Data) -> String {
    decodingProblem(stored, Self.self)
  }
}

extension CodableStorage {
  static func _fromStoredIfValid(_ stored: Data) -> Self? {
    (try? decodeStoredChecked(stored, Wrapped.self)).map { Self(userValue: $0) }
  }

  static func _storedValueProblem(_ stored: Data) -> String {
    decodingProblem(stored, Wrapped.self)
  }
}

extension OptionalCodableStorage {
  static func _fromStoredIfValid(_ stored: Data?) -> Self? {
    guard let stored else { return Self(userValue: Wrapped?.none as Any) }
    return (try? decodeStoredChecked(stored, Wrapped.self)).map { Self(userValue: $0 as Any) }
  }

  static func _storedValueProblem(_ stored: Data?) -> String {
    stored.map { decodingProblem($0, Wrapped.self) } ?? "nil is no \(Wrapped.self)"
  }
}

/// The elements converted one by one; `nil` at the first that fails.
@usableFromInline
func checkedElements<Element: PersistentValue>(_ stored: [Element.Stored]) -> [Element]? {
  var elements: [Element] = []
  elements.reserveCapacity(stored.count)
  for item in stored {
    guard let element = Element._fromStoredIfValid(item) else { return nil }
    elements.append(element)
  }
  return elements
}

/// The problem of the first element of `stored` that is no `Element`.
func elementProblem<Element: PersistentValue>(_ stored: [Element.Stored], _: Element.Type)
  -> String
{
  for (index, item) in stored.enumerated() where Element._fromStoredIfValid(item) == nil {
    return "element \(index): \(Element._storedValueProblem(item))"
  }
  return "\(describeStored(stored)) is no array of \(Element.self)"
}

/// Why `data` does not decode as `Value`: the JSON (cut at 200 characters) and the error.
func decodingProblem<Value: Decodable>(_ data: Data, _: Value.Type) -> String {
  do {
    _ = try decodeStoredChecked(data, Value.self)
    return "\(describeStored(data)) is no \(Value.self)"
  } catch {
    return "\(describeStored(data)) does not decode as \(Value.self): \(error)"
  }
}

/// A stored value as a person reads it: JSON bytes as their text, cut at 200 characters.
func describeStored(_ stored: some ColumnValue) -> String {
  if let data = stored as? Data, let text = String(data: data, encoding: .utf8) {
    return text.count > 200 ? "'\(text.prefix(200))…'" : "'\(text)'"
  }
  let text = String(describing: stored.modelValue)
  return text.count > 200 ? "\(text.prefix(200))…" : text
}
