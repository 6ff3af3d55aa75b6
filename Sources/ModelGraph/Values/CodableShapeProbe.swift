import Foundation
import ModelGraphCore

/// Finds the shape of a `Decodable` type by decoding one value of it through a decoder that
/// notes every field asked for and its type (and answers with zeros, as ``ZeroDecoder``).
enum CodableShapeProbe {
  /// The shape of `type`, or `nil` when decoding it from zeros fails (a custom `init(from:)`
  /// that checks its values).
  static func shape(of type: any Decodable.Type) -> CodableShape? {
    let node = ShapeNode()
    func open<T: Decodable>(_: T.Type) -> CodableShape? {
      if let scalar = scalarShape(T.self) { return scalar }
      guard (try? node.decode(T.self, path: [])) != nil else { return nil }
      return node.shape
    }
    return open(type)
  }

  /// The built-in type `type` is stored as, with a value for it, or `nil`.
  static func scalar(_ type: Any.Type) -> (ValueType, Any)? {
    switch type {
    case is Bool.Type: (.bool, false)
    case is String.Type: (.string, "")
    case is Double.Type: (.double, 0.0)
    case is Float.Type: (.double, Float(0))
    case is Int.Type: (.int, 0)
    case is Int8.Type: (.int, Int8(0))
    case is Int16.Type: (.int, Int16(0))
    case is Int32.Type: (.int, Int32(0))
    case is Int64.Type: (.int, Int64(0))
    case is UInt.Type: (.uint, UInt(0))
    case is UInt8.Type: (.uint, UInt8(0))
    case is UInt16.Type: (.uint, UInt16(0))
    case is UInt32.Type: (.uint, UInt32(0))
    case is UInt64.Type: (.uint, UInt64(0))
    case is Date.Type: (.date, Date(timeIntervalSinceReferenceDate: 0))
    case is UUID.Type: (.uuid, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    case is URL.Type: (.url, URL(string: "about:blank")!)
    case is Data.Type: (.data, Data())
    case is Decimal.Type: (.decimal, Decimal(0))
    default: nil
    }
  }

  private static func scalarShape(_ type: Any.Type) -> CodableShape? {
    scalar(type).map { .value($0.0) }
  }
}

/// What one decoded value turned out to be, filled in as the decoder is asked.
final class ShapeNode {
  enum Kind {
    case unset
    case value(ValueType)
    case keyed([(name: String, node: ShapeNode, isOptional: Bool)])
    case list(ShapeNode?)
  }

  var kind = Kind.unset

  var shape: CodableShape {
    switch kind {
    case .unset: .unknown
    case .value(let type): .value(type)
    case .keyed(let fields):
      .object(
        fields.map {
          CodableShape.Field(name: $0.name, shape: $0.node.shape, isOptional: $0.isOptional)
        })
    case .list(let element): .array(element?.shape ?? .unknown)
    }
  }

  /// A value of `type`, noting its shape in this node.
  func decode<T: Decodable>(_ type: T.Type, path: [any CodingKey]) throws -> T {
    if let (valueType, value) = CodableShapeProbe.scalar(T.self), let value = value as? T {
      kind = .value(valueType)
      return value
    }
    // An enum with raw values: its raw value's type, and its first case (a zero raw value may
    // name no case).
    if let raw = T.self as? any RawRepresentable.Type,
      let (valueType, _) = CodableShapeProbe.scalar(Self.rawValueType(raw)),
      let value = zeroBitsRawValue(T.self)
    {
      kind = .value(valueType)
      return value
    }
    return try T(from: ShapeDecoder(node: self, codingPath: path))
  }

  private static func rawValueType<R: RawRepresentable>(_: R.Type) -> Any.Type { R.RawValue.self }

  /// Notes a field and returns its node (a field asked for twice keeps its first node).
  func field(_ name: String, isOptional: Bool) -> ShapeNode {
    var fields: [(name: String, node: ShapeNode, isOptional: Bool)] = []
    if case .keyed(let known) = kind { fields = known }
    if let found = fields.first(where: { $0.name == name }) { return found.node }
    let node = ShapeNode()
    fields.append((name, node, isOptional))
    kind = .keyed(fields)
    return node
  }
}

private struct ShapeDecoder: Decoder {
  let node: ShapeNode
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
    if case .unset = node.kind { node.kind = .keyed([]) }
    return KeyedDecodingContainer(ShapeKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedDecodingContainer {
    ShapeUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    ShapeSingleValue(node: node, codingPath: codingPath)
  }
}

private struct ShapeSingleValue: SingleValueDecodingContainer {
  let node: ShapeNode
  var codingPath: [any CodingKey]
  func decodeNil() -> Bool { false }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try node.decode(type, path: codingPath)
  }
}

private struct ShapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let node: ShapeNode
  var codingPath: [any CodingKey]
  /// No keys: a dictionary decodes empty (its shape stays unknown).
  var allKeys: [Key] { [] }
  func contains(_: Key) -> Bool { true }
  /// Asked before an optional field is decoded (the standard `decodeIfPresent`): notes the
  /// field as optional.
  func decodeNil(forKey key: Key) -> Bool {
    _ = node.field(key.stringValue, isOptional: true)
    return false
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try node.field(key.stringValue, isOptional: false).decode(type, path: codingPath + [key])
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try node.field(key.stringValue, isOptional: true).decode(type, path: codingPath + [key])
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    -> KeyedDecodingContainer<NestedKey>
  {
    ShapeDecoder(
      node: node.field(key.stringValue, isOptional: false), codingPath: codingPath + [key]
    )
    .container(keyedBy: type)
  }
  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
    ShapeUnkeyedContainer(
      node: node.field(key.stringValue, isOptional: false), codingPath: codingPath + [key])
  }
  func superDecoder() -> any Decoder { ShapeDecoder(node: node, codingPath: codingPath) }
  func superDecoder(forKey key: Key) -> any Decoder {
    ShapeDecoder(
      node: node.field(key.stringValue, isOptional: false), codingPath: codingPath + [key])
  }
}

/// A list that holds one element, so the element's type is asked for once.
private struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
  let node: ShapeNode
  var codingPath: [any CodingKey]
  var currentIndex = 0

  init(node: ShapeNode, codingPath: [any CodingKey]) {
    self.node = node
    self.codingPath = codingPath
    if case .list = node.kind {} else { node.kind = .list(nil) }
  }

  var count: Int? { 1 }
  var isAtEnd: Bool { currentIndex > 0 }
  mutating func decodeNil() -> Bool { false }

  private mutating func element() -> ShapeNode {
    currentIndex += 1
    if case .list(let known?) = node.kind { return known }
    let element = ShapeNode()
    node.kind = .list(element)
    return element
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try element().decode(type, path: codingPath)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
    -> KeyedDecodingContainer<NestedKey>
  {
    ShapeDecoder(node: element(), codingPath: codingPath).container(keyedBy: type)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
    ShapeUnkeyedContainer(node: element(), codingPath: codingPath)
  }
  mutating func superDecoder() -> any Decoder {
    ShapeDecoder(node: element(), codingPath: codingPath)
  }
}
