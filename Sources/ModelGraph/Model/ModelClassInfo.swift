@_spi(Reflection) import Swift

/// What reflection found in one model class: its wrappers, their offsets and slots, its entity.
///
/// Built once per class from the runtime's field metadata (names, offsets and types of every
/// stored property, inherited first), so no object and no key path is needed to learn the
/// schema, and every new object's wrappers are bound to their slots by offset in `init()`.
final class ModelClassInfo: @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable after init except `lazyState`,
  // which is guarded by its mutex.

  struct Field {
    var offset: Int
    var wrapper: any _ModelPropertyWrapper.Type
    var slot: Int
  }

  struct AttributeField {
    var name: String
    var offset: Int
    var type: any _AttributeWrapper.Type
    /// The declared value type and where the wrapper keeps the value of a new object.
    var valueType: any PersistentValue.Type
    var valueOffset: Int
  }

  struct RelationshipField {
    var name: String
    var offset: Int
    var type: any _RelationshipWrapper.Type
  }

  let modelClass: PersistentModel.Type
  let entityName: String
  /// The nearest ancestor that is a model class (not `PersistentModel` itself).
  let parentClass: PersistentModel.Type?
  let fields: [Field]
  let attributeWrappers: [AttributeField]
  let relationshipWrappers: [RelationshipField]
  /// The number of attributes and relationships inherited from ancestors.
  let inheritedAttributeCount: Int
  let inheritedRelationshipCount: Int
  /// Problems found in the class's declarations, reported when a container registers it.
  let problems: [SchemaError]
  let lazyState = Locked(LazyState())

  struct LazyState: @unchecked Sendable {
    // @unchecked Sendable: only reached through the mutex.
    var prototype: PersistentModel?
  }

  private static let registry = Locked<[ObjectIdentifier: ModelClassInfo]>([:])

  /// The info of `modelClass`, built on first use.
  static func info(for modelClass: PersistentModel.Type) -> ModelClassInfo {
    let key = ObjectIdentifier(modelClass)
    if let info = registry.withLock({ $0[key] }) { return info }
    let info = ModelClassInfo(modelClass)
    return registry.withLock { registry in
      if let existing = registry[key] { return existing }
      registry[key] = info
      return info
    }
  }

  private init(_ modelClass: PersistentModel.Type) {
    self.modelClass = modelClass
    entityName = String(describing: modelClass)
    let parent = _getSuperclass(modelClass) as? PersistentModel.Type
    parentClass = parent == PersistentModel.self ? nil : parent
    let parentInfo = parentClass.map { ModelClassInfo.info(for: $0) }
    let baseFieldCount = fieldCount(of: PersistentModel.self)
    let inheritedFieldCount = parentClass.map { fieldCount(of: $0) } ?? baseFieldCount
    inheritedAttributeCount = parentInfo?.attributeWrappers.count ?? 0
    inheritedRelationshipCount = parentInfo?.relationshipWrappers.count ?? 0

    var fields: [Field] = []
    var attributes: [AttributeField] = []
    var relationships: [RelationshipField] = []
    var problems = parentInfo?.problems ?? []
    var index = 0
    let entityName = entityName
    _ = _forEachField(of: modelClass, options: classFieldOptions) { cName, offset, type, _ in
      defer { index += 1 }
      guard index >= baseFieldCount else { return true }
      let rawName = String(cString: cName)
      let name = rawName.hasPrefix("_") ? String(rawName.dropFirst()) : rawName
      if let attribute = type as? any _AttributeWrapper.Type {
        fields.append(Field(offset: offset, wrapper: attribute, slot: attributes.count))
        attributes.append(
          AttributeField(
            name: name, offset: offset, type: attribute,
            valueType: attribute.persistentValueType, valueOffset: attribute.valueOffset))
      } else if let relationship = type as? any _RelationshipWrapper.Type {
        fields.append(Field(offset: offset, wrapper: relationship, slot: relationships.count))
        relationships.append(RelationshipField(name: name, offset: offset, type: relationship))
      } else if type is any _TransientWrapper.Type || rawName.hasPrefix("$__lazy_storage_$_") {
        // Not persisted.
      } else if index >= inheritedFieldCount {
        problems.append(
          SchemaError(
            .unmarkedStoredProperty, entity: entityName, property: rawName,
            message:
              "stored property '\(rawName)' has neither @Attribute, @Relationship nor @Transient"))
      }
      return true
    }
    self.fields = fields
    attributeWrappers = attributes
    relationshipWrappers = relationships
    for attribute in attributes.dropFirst(inheritedAttributeCount) {
      let expected = attribute.type.attributeValueType.storageType(
        isOptional: attribute.type.isOptional)
      if expected != attribute.type.storedType {
        problems.append(
          SchemaError(
            .unsupportedType, entity: entityName, property: attribute.name,
            message:
              "type stored as \(attribute.type.storedType) cannot be an attribute (expected \(expected))"
          ))
      }
    }
    self.problems = problems
  }

  /// Points every wrapper of `object` (an instance of this class) at the object and its slot.
  func bind(_ object: PersistentModel) {
    let base = Unmanaged.passUnretained(object).toOpaque()
    for field in fields {
      field.wrapper.bind(at: base + field.offset, owner: object, slot: field.slot)
    }
  }

  /// Points every attribute wrapper of `object` at its row of `table` (or at none).
  func bindRow(_ object: PersistentModel, table: Unmanaged<Table>?, row: Int) {
    let base = Unmanaged.passUnretained(object).toOpaque()
    for field in attributeWrappers {
      AttributeLayout.bindRow(at: base + field.offset, table: table, row: row)
    }
  }

  /// The name of attribute `slot`.
  func attributeName(_ slot: Int) -> String { attributeWrappers[slot].name }

  /// The name of relationship `slot`.
  func relationshipName(_ slot: Int) -> String { relationshipWrappers[slot].name }

  /// Moves the value of attribute `slot` of `object` (which has no row) from its wrapper into
  /// `row` of `column`.
  ///
  /// - Returns: `false` when the wrapper held no value.
  func moveValue(of object: PersistentModel, slot: Int, into column: AnyColumn, row: Int) -> Bool {
    let field = attributeWrappers[slot]
    return field.valueType._moveStored(
      from: address(of: slot, in: object) + field.valueOffset, into: column, row: row)
  }

  /// Puts `stored` back into attribute `slot`'s wrapper in `object` (which left its row).
  func restoreValue(_ stored: any ColumnValue, of object: PersistentModel, slot: Int) {
    attributeWrappers[slot].type.restoreValue(stored, at: address(of: slot, in: object))
  }

  /// The address of attribute `slot`'s wrapper inside `object`.
  func address(of slot: Int, in object: PersistentModel) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque() + attributeWrappers[slot].offset
  }
}

private func fieldCount(of type: AnyClass) -> Int {
  var count = 0
  _ = _forEachField(of: type, options: classFieldOptions) { _, _, _, _ in
    count += 1
    return true
  }
  return count
}

private func != (lhs: any ColumnValue.Type, rhs: any ColumnValue.Type) -> Bool {
  ObjectIdentifier(lhs) != ObjectIdentifier(rhs)
}

/// `_EachFieldOptions.classType` (bit 0), spelled out because the standard library declares
/// the option as a mutable static.
private let classFieldOptions = _EachFieldOptions(rawValue: 1 << 0)
