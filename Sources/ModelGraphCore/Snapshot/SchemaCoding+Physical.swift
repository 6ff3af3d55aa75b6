/// The physical part of a schema, from format version 3 on: default values and indexes.
extension SchemaCatalog {
  /// An attribute's default value: a flag (0 none, 1 a value follows), then the value.
  static func decodeDefault(
    of attribute: AttributeDescription, _ reader: inout ByteReader
  ) throws -> ModelValue? {
    switch try reader.read(UInt8.self) {
    case 0: return nil
    case 1:
      let value = try ModelValue.decode(from: &reader)
      let fits =
        value.isNull
        ? attribute.isOptional : attribute.storageType.init(modelValue: value) != nil
      guard fits else {
        throw reader.error(
          "default value \(value) does not fit attribute \(attribute.name) of type "
            + attribute.typeName)
      }
      return value
    case let flag: throw reader.error("\(flag) is not a default value's flag")
    }
  }

  /// An entity's declared indexes: a count, then per index its kind (0 ordered, 1 hash), the
  /// attribute's name and a unique flag (0 or 1).
  static func decodeIndexes(_ reader: inout ByteReader) throws -> [IndexDefinition] {
    let count = try reader.readCount(minimumSize: 6)
    var indexes: [IndexDefinition] = []
    for _ in 0..<count {
      let kind: IndexDefinition.Kind
      switch try reader.read(UInt8.self) {
      case 0: kind = .ordered
      case 1: kind = .hash
      case let tag: throw reader.error("unknown index kind \(tag)")
      }
      let attribute = try reader.readString()
      let unique = try reader.read(UInt8.self)
      guard unique <= 1 else { throw reader.error("\(unique) is not an index's unique flag") }
      indexes.append(IndexDefinition(kind, on: attribute, isUnique: unique == 1))
    }
    return indexes
  }

  /// Every declared index names an indexable attribute of its entity, own or inherited.
  static func checkIndexes(of catalog: SchemaCatalog, _ reader: inout ByteReader) throws {
    for entity in catalog.entities {
      for index in entity.description.indexes {
        guard let slot = entity.attributeSlot(named: index.attribute) else {
          throw reader.error(
            "index \(index) of \(entity.name) names no attribute of \(entity.name)")
        }
        guard entity.attributes[slot].isIndexable else {
          throw reader.error(
            "index \(index) of \(entity.name): \(entity.attributes[slot].typeName) attributes "
              + "cannot be indexed")
        }
      }
    }
  }
}
