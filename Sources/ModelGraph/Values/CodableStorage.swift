import Foundation
import ModelGraphCore

/// The stored form of an attribute whose type is `Codable` but not ``PersistentValue`` (a
/// struct or enum as written, a dictionary, a set of such values): the value encoded as JSON
/// with sorted keys, kept as a composite value.
///
/// The types below stand in for the declared type wherever the engine needs a
/// ``PersistentValue``; an attribute of such a type reads and writes through them, off the path
/// of the built-in types.
protocol _CodableStorage: PersistentValue {
  /// The value as the model declares it, from the declared type boxed as `Any`.
  init(userValue: Any)
  /// The value as the model declares it.
  var userValue: Any { get }
  /// The declared type.
  static var userType: Any.Type { get }
}

/// A non-optional `Codable` attribute value.
struct CodableStorage<Wrapped: Codable>: _CodableStorage {
  typealias Stored = Data
  var value: Wrapped

  init(userValue: Any) { value = userValue as! Wrapped }
  var userValue: Any { value }
  static var userType: Any.Type { Wrapped.self }

  static var valueType: ValueType { .composite(String(describing: Wrapped.self)) }

  static func fromStored(_ stored: Data) -> Self {
    Self(userValue: decodeStored(stored, Wrapped.self))
  }

  var stored: Data { encodeStored(value) }

  static var probeValue: Self { Self(userValue: codableProbe(Wrapped.self)) }

  /// Moves the declared `Wrapped?` at `address` (the wrapper's value) into the column.
  static func _moveStored(from address: UnsafeMutableRawPointer, into column: AnyColumn, row: Int)
    -> Bool
  {
    let slot = address.assumingMemoryBound(to: Wrapped?.self)
    let value = slot.move()
    slot.initialize(to: nil)
    guard let value else { return false }
    unsafeDowncast(column, to: Column<Data>.self)[row] = encodeStored(value)
    return true
  }
}

/// An optional `Codable` attribute value: `nil` is stored as no value, not as JSON `null`.
struct OptionalCodableStorage<Wrapped: Codable>: _CodableStorage {
  typealias Stored = Data?
  var value: Wrapped?

  init(userValue: Any) { value = userValue as! Wrapped? }
  var userValue: Any { value as Any }
  static var userType: Any.Type { Wrapped?.self }

  static var valueType: ValueType { .composite(String(describing: Wrapped.self)) }
  static var isOptionalValue: Bool { true }

  static func fromStored(_ stored: Data?) -> Self {
    Self(userValue: stored.map { decodeStored($0, Wrapped.self) } as Any)
  }

  var stored: Data? { value.map(encodeStored) }

  static var probeValue: Self { Self(userValue: Wrapped?.none as Any) }

  /// Moves the declared `Wrapped??` at `address` (the wrapper's value) into the column.
  static func _moveStored(from address: UnsafeMutableRawPointer, into column: AnyColumn, row: Int)
    -> Bool
  {
    let slot = address.assumingMemoryBound(to: Wrapped??.self)
    let value = slot.move()
    slot.initialize(to: nil)
    guard let value else { return false }
    unsafeDowncast(column, to: Column<Data?>.self)[row] = value.map(encodeStored)
    return true
  }
}

/// The encoding every `Codable` attribute value is stored in: JSON with sorted keys and, for a
/// set, sorted elements, so equal dictionaries, structs and sets store equal bytes; for a type
/// ``CanonicalEquality`` accepts, the canonical JSON, whose bytes are equal exactly when the
/// values are `==`.
func encodeStored<Value: Encodable>(_ value: Value) -> Data {
  do {
    return try encodeCanonically(value)
  } catch {
    fatalError("\(Value.self) value does not encode: \(error)")
  }
}

/// ``encodeStored(_:)``, throwing when the value does not encode.
func encodeCanonically<Value: Encodable>(_ value: Value) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  // JSON has no NaN or infinity: they are stored as these strings, so any Double stores.
  encoder.nonConformingFloatEncodingStrategy = .convertToString(
    positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
  let data = try encoder.encode(value)
  if Value.self is any _SetType.Type { return canonicalSetJSON(data) }
  if CanonicalEquality.isProvable(Value.self) { return canonicalJSON(data) ?? data }
  return data
}

/// Decodes a stored value; bytes that do not decode (a stored value written by a version of the
/// type with other fields or cases) stop with a message naming the type. Attribute reads check
/// first (``_fromStoredIfValid(_:)``) and stop naming the class and property instead.
func decodeStored<Value: Decodable>(_ data: Data, _: Value.Type) -> Value {
  do {
    return try decodeStoredChecked(data, Value.self)
  } catch {
    fatalError("stored \(Value.self) value does not decode as the declared type: \(error)")
  }
}

/// Decodes a stored value, throwing the decoder's error when the bytes are no `Value`.
func decodeStoredChecked<Value: Decodable>(_ data: Data, _: Value.Type) throws -> Value {
  let decoder = JSONDecoder()
  decoder.nonConformingFloatDecodingStrategy = .convertFromString(
    positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
  return try decoder.decode(Value.self, from: data)
}

/// A value built from zeros, for key-path probes only.
func codableProbe<Value: Decodable>(_: Value.Type) -> Value {
  do {
    return try Value(from: ZeroDecoder())
  } catch {
    if let value = zeroBitsRawValue(Value.self) { return value }
    fatalError(
      "\(Value.self) cannot be built for a key-path probe (\(error)); give the attribute an initial value"
    )
  }
}
