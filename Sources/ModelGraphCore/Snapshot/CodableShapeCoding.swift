/// The schema's encoding of the Codable shapes (format 5): after the entities, a count and per
/// type its name and its shape. A shape is a tag byte: 0 a single value (its value type
/// follows), 1 keyed (a field count, then per field its name, an optional flag byte and its
/// shape), 2 a list (the element's shape follows), 3 unknown.
extension CodableShape {
  func encode(into writer: inout ByteWriter) {
    switch self {
    case .value(let type):
      writer.append(UInt8(0))
      type.encode(into: &writer)
    case .object(let fields):
      writer.append(UInt8(1))
      writer.append(UInt64(fields.count))
      for field in fields {
        writer.append(string: field.name)
        writer.append(UInt8(field.isOptional ? 1 : 0))
        field.shape.encode(into: &writer)
      }
    case .array(let element):
      writer.append(UInt8(2))
      element.encode(into: &writer)
    case .unknown:
      writer.append(UInt8(3))
    }
  }

  static func decode(from reader: inout ByteReader, depth: Int = 0) throws -> CodableShape {
    guard depth < SnapshotFormat.maximumTypeDepth else {
      throw reader.error("a Codable shape nests deeper than \(SnapshotFormat.maximumTypeDepth)")
    }
    let start = reader.position
    switch try reader.read(UInt8.self) {
    case 0:
      let type = try ValueType.decode(from: &reader)
      switch type {
      case .composite, .array:
        throw reader.error("a Codable shape's single value of type \(type)", at: start + 1)
      default: return .value(type)
      }
    case 1:
      var fields: [Field] = []
      for _ in 0..<(try reader.readCount(minimumSize: 6)) {
        let name = try reader.readString()
        let flag = try reader.read(UInt8.self)
        guard flag <= 1 else { throw reader.error("optional flag \(flag)") }
        fields.append(
          Field(
            name: name, shape: try decode(from: &reader, depth: depth + 1), isOptional: flag == 1))
      }
      return .object(fields)
    case 2: return .array(try decode(from: &reader, depth: depth + 1))
    case 3: return .unknown
    case let tag: throw reader.error("unknown Codable shape tag \(tag)", at: start)
    }
  }
}

extension SchemaCatalog {
  /// Appends ``codableShapes``, sorted by type name.
  func encodeShapes(into writer: inout ByteWriter) {
    writer.append(UInt64(codableShapes.count))
    for (name, shape) in codableShapes.sorted(by: { $0.key < $1.key }) {
      writer.append(string: name)
      shape.encode(into: &writer)
    }
  }

  /// Reads the shapes ``encodeShapes(into:)`` wrote into the catalog.
  mutating func decodeShapes(from reader: inout ByteReader) throws {
    for _ in 0..<(try reader.readCount(minimumSize: 5)) {
      let start = reader.position
      let name = try reader.readString()
      guard codableShapes[name] == nil else {
        throw reader.error("the shape of \(name) is given twice", at: start)
      }
      codableShapes[name] = try CodableShape.decode(from: &reader)
    }
  }
}
