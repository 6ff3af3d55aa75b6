import ModelGraphCore

/// A property wrapper the model reflection recognizes and binds to its object (at offsets found
/// once per class, so binding needs no generic code).
protocol _ModelPropertyWrapper {
  /// The declared property type.
  static var valueSwiftType: Any.Type { get }
}

/// ``Attribute``, seen without its value type.
protocol _AttributeWrapper: _ModelPropertyWrapper {
  static var attributeValueType: ValueType { get }
  static var isOptional: Bool { get }
  static var storedType: any ColumnValue.Type { get }
  static func description(at address: UnsafeMutableRawPointer, name: String)
    -> AttributeDescription
  /// The declared value type.
  static var persistentValueType: any PersistentValue.Type { get }
  /// The offset of the wrapper's `value` (of type `Value?`) inside the wrapper.
  static var valueOffset: Int { get }
  /// The offset of the wrapper's `slot` (an `Int16`) inside the wrapper: after the value, so
  /// it depends on the value type.
  static var slotOffset: Int { get }
  /// Puts a stored value back into a wrapper whose owner left its row.
  static func restoreValue(_ stored: any ColumnValue, at address: UnsafeMutableRawPointer)
}

/// ``Relationship``, seen without its value type.
protocol _RelationshipWrapper: _ModelPropertyWrapper {
  static var destinationType: ModelObject.Type { get }
  static var isToMany: Bool { get }
  static func declaration(at address: UnsafeMutableRawPointer) -> RelationshipDeclaration
}

/// ``Transient``, seen without its value type.
protocol _TransientWrapper {}

/// What a `@Relationship` declaration says, before key paths are resolved to names; recorded
/// once per class by ``DeclarationRecorder``.
struct RelationshipDeclaration {
  var deleteRule: DeleteRule
  var minimumModelCount: Int32
  var maximumModelCount: Int32
  /// The inverse key path, made only when the schema is read.
  var inverse: () -> AnyKeyPath?
  var originalName: String?

  init(
    deleteRule: DeleteRule, inverse: @escaping () -> AnyKeyPath?, minimumModelCount: Int32,
    maximumModelCount: Int32, originalName: String?
  ) {
    self.deleteRule = deleteRule
    self.inverse = inverse
    self.minimumModelCount = minimumModelCount
    self.maximumModelCount = maximumModelCount
    self.originalName = originalName
  }
}

/// The offset of the field binding writes in ``Relationship`` wrappers (an attribute's depends
/// on its value type: ``_AttributeWrapper/slotOffset``), read once into one value so a binding
/// loop reads no global.
struct WrapperLayout {
  let relationshipSlot = RelationshipLayout.slot

  static let shared = WrapperLayout()
}
