/// A decoder that answers every request with zero, `false`, an empty string or an empty
/// container, so a `Codable` value can be built for a key-path probe without stored data.
struct ZeroDecoder: Decoder {
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(ZeroKeyedContainer<Key>(codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedDecodingContainer {
    ZeroUnkeyedContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    ZeroSingleValue(codingPath: codingPath)
  }
}

private func zeroValue(of type: Any.Type) -> Any? {
  switch type {
  case is Bool.Type: false
  case is String.Type: ""
  case is Double.Type: 0.0
  case is Float.Type: Float(0)
  case is Int.Type: 0
  case is Int8.Type: Int8(0)
  case is Int16.Type: Int16(0)
  case is Int32.Type: Int32(0)
  case is Int64.Type: Int64(0)
  case is UInt.Type: UInt(0)
  case is UInt8.Type: UInt8(0)
  case is UInt16.Type: UInt16(0)
  case is UInt32.Type: UInt32(0)
  case is UInt64.Type: UInt64(0)
  default: nil
  }
}

private func zero<T: Decodable>(_ type: T.Type, path: [any CodingKey]) throws -> T {
  if let value = zeroValue(of: type) as? T { return value }
  if let value = (type as? any PersistentValue.Type)?.probeValue as? T { return value }
  do {
    return try T(from: ZeroDecoder(codingPath: path))
  } catch {
    guard let value = zeroBitsRawValue(T.self) else { throw error }
    return value
  }
}

/// The value whose bits are all zero, for a `RawRepresentable` type without references of at
/// most 8 bytes: an enum with raw values has no payloads, so that is its first declared case
/// (a raw value of zero or `""` may name no case, so decoding one can fail).
func zeroBitsRawValue<T>(_: T.Type) -> T? {
  guard T.self is any RawRepresentable.Type, _isPOD(T.self), MemoryLayout<T>.size <= 8 else {
    return nil
  }
  return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { buffer in
    buffer[0] = 0
    return UnsafeRawPointer(buffer.baseAddress!).load(as: T.self)
  }
}

private struct ZeroSingleValue: SingleValueDecodingContainer {
  var codingPath: [any CodingKey]
  func decodeNil() -> Bool { false }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try zero(type, path: codingPath) }
}

private struct ZeroKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  var codingPath: [any CodingKey]
  /// The first key of a key enum without payloads (the one whose bits are zero), so an enum's
  /// synthesized decoding builds its first case; no key for any other key type.
  var allKeys: [Key] {
    guard _isPOD(Key.self), MemoryLayout<Key>.size <= 8 else { return [] }
    return [
      withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { buffer in
        buffer[0] = 0
        return UnsafeRawPointer(buffer.baseAddress!).load(as: Key.self)
      }
    ]
  }
  func contains(_: Key) -> Bool { true }
  func decodeNil(forKey _: Key) -> Bool { false }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try zero(type, path: codingPath + [key])
  }
  func decodeIfPresent<T: Decodable>(_: T.Type, forKey _: Key) throws -> T? { nil }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key)
    -> KeyedDecodingContainer<NestedKey>
  {
    KeyedDecodingContainer(ZeroKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
  }
  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
    ZeroUnkeyedContainer(codingPath: codingPath + [key])
  }
  func superDecoder() -> any Decoder { ZeroDecoder(codingPath: codingPath) }
  func superDecoder(forKey key: Key) -> any Decoder { ZeroDecoder(codingPath: codingPath + [key]) }
}

private struct ZeroUnkeyedContainer: UnkeyedDecodingContainer {
  var codingPath: [any CodingKey]
  var count: Int? { 0 }
  var isAtEnd: Bool { true }
  var currentIndex: Int { 0 }
  mutating func decodeNil() -> Bool { false }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    throw DecodingError.valueNotFound(
      type, .init(codingPath: codingPath, debugDescription: "empty probe container"))
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedDecodingContainer<NestedKey>
  {
    KeyedDecodingContainer(ZeroKeyedContainer<NestedKey>(codingPath: codingPath))
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
    ZeroUnkeyedContainer(codingPath: codingPath)
  }
  mutating func superDecoder() -> any Decoder { ZeroDecoder(codingPath: codingPath) }
}
