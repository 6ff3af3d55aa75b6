extension ValueType {
  func encode(into writer: inout ByteWriter) {
    switch self {
    case .bool: writer.append(UInt8(0))
    case .int: writer.append(UInt8(1))
    case .uint: writer.append(UInt8(2))
    case .double: writer.append(UInt8(3))
    case .string: writer.append(UInt8(4))
    case .date: writer.append(UInt8(5))
    case .uuid: writer.append(UInt8(6))
    case .url: writer.append(UInt8(7))
    case .data: writer.append(UInt8(8))
    case .decimal: writer.append(UInt8(9))
    case .composite(let name):
      writer.append(UInt8(10))
      writer.append(string: name)
    case .array(let element):
      writer.append(UInt8(11))
      element.encode(into: &writer)
    }
  }

  static func decode(from reader: inout ByteReader, depth: Int = 0) throws -> ValueType {
    guard depth < SnapshotFormat.maximumTypeDepth else {
      throw reader.error("array types nest deeper than \(SnapshotFormat.maximumTypeDepth)")
    }
    switch try reader.read(UInt8.self) {
    case 0: return .bool
    case 1: return .int
    case 2: return .uint
    case 3: return .double
    case 4: return .string
    case 5: return .date
    case 6: return .uuid
    case 7: return .url
    case 8: return .data
    case 9: return .decimal
    case 10: return .composite(try reader.readString())
    case 11: return .array(try decode(from: &reader, depth: depth + 1))
    case let tag: throw reader.error("unknown value type tag \(tag)")
    }
  }
}

extension SchemaCatalog {
  /// The catalog's entity descriptions, in index order, as format `version` lays them out:
  /// from version 3 on with each attribute's default value and each entity's indexes, from
  /// version 8 on with each attribute's integer width (or `Float`).
  func encode(into writer: inout ByteWriter, version: UInt32 = SnapshotFormat.version) {
    let physical = version >= SnapshotFormat.physicalSchemaVersion
    let widths = version >= SnapshotFormat.integerWidthVersion
    writer.append(UInt64(entities.count))
    for entity in entities {
      let description = entity.description
      writer.append(string: description.name)
      writer.append(optional: description.parent)
      writer.append(UInt64(description.attributes.count))
      for attribute in description.attributes {
        writer.append(string: attribute.name)
        attribute.valueType.encode(into: &writer)
        let flags =
          (attribute.isOptional ? 1 : 0) | (attribute.isUnique ? 2 : 0)
          | (attribute.preservesValueOnDeletion ? 4 : 0)
        writer.append(UInt8(flags))
        if widths { writer.append(attribute.widthTag) }
        writer.append(optional: attribute.originalName)
        if physical {
          if let value = attribute.defaultValue {
            writer.append(UInt8(1))
            value.encode(into: &writer)
          } else {
            writer.append(UInt8(0))
          }
        }
      }
      writer.append(UInt64(description.relationships.count))
      for relationship in description.relationships {
        writer.append(string: relationship.name)
        writer.append(string: relationship.destination)
        writer.append(UInt8((relationship.isToMany ? 1 : 0) | (relationship.isOptional ? 2 : 0)))
        writer.append(optional: relationship.inverse)
        writer.append(UInt8(DeleteRule.allCases.firstIndex(of: relationship.deleteRule)!))
        writer.append(UInt64(relationship.minimumModelCount))
        writer.append(UInt64(relationship.maximumModelCount))
        writer.append(optional: relationship.originalName)
      }
      writer.append(UInt64(description.uniqueConstraints.count))
      for constraint in description.uniqueConstraints {
        writer.append(UInt64(constraint.count))
        for name in constraint { writer.append(string: name) }
      }
      if physical {
        writer.append(UInt64(description.indexes.count))
        for index in description.indexes {
          writer.append(UInt8(index.kind == .ordered ? 0 : 1))
          writer.append(string: index.attribute)
          writer.append(UInt8(index.isUnique ? 1 : 0))
        }
      }
    }
    if version >= SnapshotFormat.codableShapeVersion { encodeShapes(into: &writer) }
  }

  /// Reads descriptions written by ``encode(into:version:)`` for format `version` and resolves
  /// them in order.
  ///
  /// - Throws: ``SnapshotError`` for a malformed schema: among others an unknown index kind, an
  ///   index on no attribute of its entity or on one that cannot be indexed, and a default
  ///   value that does not fit its attribute.
  static func decode(
    from reader: inout ByteReader, version: UInt32 = SnapshotFormat.version
  ) throws -> SchemaCatalog {
    let physical = version >= SnapshotFormat.physicalSchemaVersion
    let widths = version >= SnapshotFormat.integerWidthVersion
    let count = try reader.readCount(minimumSize: 29)
    var descriptions: [EntityDescription] = []
    for _ in 0..<count {
      var entity = EntityDescription(name: try reader.readString())
      entity.parent = try reader.readOptionalString()
      let attributeCount = try reader.readCount(minimumSize: 7)
      for _ in 0..<attributeCount {
        let name = try reader.readString()
        let valueType = try ValueType.decode(from: &reader)
        let flags = try reader.read(UInt8.self)
        let tag = widths ? try reader.read(UInt8.self) : 0
        let isFloat32 = tag == AttributeDescription.float32Tag
        let width = isFloat32 ? nil : try QueryIntegerWidth.decode(tag, from: reader)
        var attribute = AttributeDescription(
          name: name, valueType: valueType, isOptional: flags & 1 != 0,
          isUnique: flags & 2 != 0, preservesValueOnDeletion: flags & 4 != 0,
          originalName: try reader.readOptionalString(), integerWidth: width,
          isFloat32: isFloat32)
        if physical { attribute.defaultValue = try Self.decodeDefault(of: attribute, &reader) }
        entity.attributes.append(attribute)
      }
      let relationshipCount = try reader.readCount(minimumSize: 28)
      for _ in 0..<relationshipCount {
        let name = try reader.readString()
        let destination = try reader.readString()
        let flags = try reader.read(UInt8.self)
        let inverse = try reader.readOptionalString()
        let rule = Int(try reader.read(UInt8.self))
        guard rule < DeleteRule.allCases.count else {
          throw reader.error("unknown delete rule \(rule)")
        }
        let minimum = try reader.read(UInt64.self)
        let maximum = try reader.read(UInt64.self)
        guard minimum <= UInt64(Int32.max), maximum <= UInt64(Int32.max) else {
          throw reader.error("relationship count limits out of range")
        }
        entity.relationships.append(
          RelationshipDescription(
            name: name, destination: destination, isToMany: flags & 1 != 0,
            isOptional: flags & 2 != 0, inverse: inverse, deleteRule: DeleteRule.allCases[rule],
            minimumModelCount: Int(minimum), maximumModelCount: Int(maximum),
            originalName: try reader.readOptionalString()))
      }
      let constraintCount = try reader.readCount(minimumSize: 8)
      for _ in 0..<constraintCount {
        let nameCount = try reader.readCount(minimumSize: 4)
        var names: [String] = []
        for _ in 0..<nameCount { names.append(try reader.readString()) }
        entity.uniqueConstraints.append(names)
      }
      if physical { entity.indexes = try Self.decodeIndexes(&reader) }
      descriptions.append(entity)
    }
    var catalog = SchemaCatalog()
    for description in descriptions {
      do {
        catalog = try catalog.adding([description])
      } catch let error as SchemaError {
        throw reader.error("schema is inconsistent: \(error)")
      }
    }
    try Self.checkIndexes(of: catalog, &reader)
    if version >= SnapshotFormat.codableShapeVersion { try catalog.decodeShapes(from: &reader) }
    return catalog
  }
}

extension AttributeDescription {
  /// The width byte of a schema block (format version 8 on) for a `Float` attribute
  /// (``isFloat32``); the integer widths are 1 to 6 (``QueryIntegerWidth/formatTag``).
  static let float32Tag: UInt8 = 7

  /// The attribute's width byte: its ``integerWidth``'s tag, ``float32Tag``, or 0.
  var widthTag: UInt8 { integerWidth?.formatTag ?? (isFloat32 ? Self.float32Tag : 0) }
}

extension QueryIntegerWidth {
  /// The byte a schema block holds for the width, from format version 8 on; 0 is 64 bits
  /// (and every attribute that is no integer).
  var formatTag: UInt8 {
    switch self {
    case .int8: 1
    case .int16: 2
    case .int32: 3
    case .uint8: 4
    case .uint16: 5
    case .uint32: 6
    }
  }

  /// The width of a ``formatTag`` `reader` read: `nil` for 64 bits.
  static func decode(_ tag: UInt8, from reader: ByteReader) throws -> QueryIntegerWidth? {
    guard tag != 0 else { return nil }
    guard let width = allCases.first(where: { $0.formatTag == tag }) else {
      throw reader.error("unknown attribute width tag \(tag)")
    }
    return width
  }
}

extension ByteWriter {
  mutating func append(optional string: String?) {
    if let string {
      append(UInt8(1))
      append(string: string)
    } else {
      append(UInt8(0))
    }
  }
}

extension ByteReader {
  mutating func readOptionalString() throws -> String? {
    switch try read(UInt8.self) {
    case 0: return nil
    case 1: return try readString()
    case let tag: throw error("\(tag) is not an optional's tag")
    }
  }
}
