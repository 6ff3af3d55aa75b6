public import ModelGraphCore

/// Marks a stored property of a model class as a relationship to other model objects.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
/// var accommodations: [Accommodation]
/// @Relationship var trip: Trip?
/// ```
/// A to-one relationship is an optional model type; a to-many relationship is an array and
/// keeps the order objects were added in. Name `inverse:` on one side only (Swift rejects
/// naming it on both); the engine knows both sides. A to-one relationship may be declared
/// `= nil`; a to-many one takes no initial value and starts empty. The declarations SwiftData
/// accepts but ModelGraph does not (`[Tag]?`, `= []`, a non-optional to-one) fail to compile
/// with a message that names the fix.
@propertyWrapper
public struct Relationship<Value> {
  /// The relationship's slot in its class, written when the object is made; the accessors
  /// receive the object itself (`_enclosingInstance`), so the wrapper holds no reference.
  @usableFromInline var slot: Int32 = -1
  /// The number of this declaration's record (delete rule, counts, `originalName:`, inverse)
  /// in ``DeclarationRecorder``, kept only by a class's prototype object; other objects store
  /// ``DeclarationRecorder/none``, so the wrapper holds no reference-counted field.
  @usableFromInline let declaration: Int32

  /// A relationship with a delete rule, count limits and an optional inverse.
  ///
  /// - Parameters:
  ///   - deleteRule: What deleting the owner does to the related objects.
  ///   - minimumModelCount: The fewest related objects a save accepts (0: none). On a to-one
  ///     relationship, 1 makes it required: a save fails while it holds no object.
  ///   - maximumModelCount: The most related objects a save accepts (to-many; 0: no limit).
  ///   - originalName: The property's name in an earlier schema version.
  ///   - inverse: The relationship on the destination class that points back.
  ///
  /// The arguments are kept once per class, not per object, and the inverse key path is
  /// evaluated only when the schema is read.
  @inlinable
  public init(
    deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value: RelationshipValue {
    if DeclarationRecorder.isRecording {
      declaration = DeclarationRecorder.recordRelationship(
        deleteRule: deleteRule, minimumModelCount: minimumModelCount,
        maximumModelCount: maximumModelCount, originalName: originalName, inverse: inverse)
    } else {
      declaration = DeclarationRecorder.none
    }
  }

  /// A to-one relationship declared `= nil`, as SwiftData code often writes it.
  ///
  /// > Important: The initial value must be `nil`: an initial related object stops the
  /// > process with a message (assign it after the object is made instead).
  public init<Destination: PersistentModel>(
    wrappedValue: Destination?, deleteRule: DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value == Destination? {
    require(
      wrappedValue == nil,
      "a @Relationship's initial value must be nil; assign the related object after init")
    self.init(
      deleteRule: deleteRule, minimumModelCount: minimumModelCount,
      maximumModelCount: maximumModelCount, originalName: originalName, inverse: inverse())
  }

  /// The related object or objects.
  ///
  /// A model class reaches them through ``subscript(_enclosingInstance:wrapped:storage:)``;
  /// `@Relationship` outside a model class does not compile.
  @available(*, unavailable, message: "@Relationship is only available on model classes")
  public var wrappedValue: Value {
    get { fatalError("@Relationship is only available on model classes") }
    nonmutating set { fatalError("@Relationship is only available on model classes") }
  }

  /// The related object or objects of `instance` that `storage` names.
  ///
  /// Assigning objects that belong to no context inserts them into the owner's context.
  /// - Complexity: O(n) in the number of related objects.
  @inlinable
  public static subscript<Owner: ModelObject>(
    _enclosingInstance instance: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get {
      let slot = Int(instance[keyPath: storage].slot)
      func make<Related: RelationshipValue>(_: Related.Type) -> Value {
        Related.fromModels(instance._relatedObjects(slot: slot)) as! Value
      }
      return make(relationshipValueType)
    }
    set {
      let slot = Int(instance[keyPath: storage].slot)
      func models<Related: RelationshipValue>(_: Related.Type) -> [ModelObject] {
        (newValue as! Related).models
      }
      instance._setRelatedObjects(slot: slot, models(relationshipValueType))
    }
  }

  /// `Value` as a ``RelationshipValue``, which every available initializer requires; the cast
  /// folds away once an accessor is specialized.
  @inlinable
  static var relationshipValueType: any RelationshipValue.Type {
    Value.self as! any RelationshipValue.Type
  }
}

extension Relationship: _RelationshipWrapper {
  static var valueSwiftType: Any.Type { Value.self }
  static var destinationType: ModelObject.Type { relationshipValueType.destinationType }
  static var isToMany: Bool { relationshipValueType.isToMany }

  static func declaration(at address: UnsafeMutableRawPointer) -> RelationshipDeclaration {
    let number = address.assumingMemoryBound(to: Self.self).pointee.declaration
    guard case .relationship(let declaration)? = DeclarationRecorder.record(number) else {
      fatalError("a relationship's declaration was not recorded")
    }
    return declaration
  }
}

/// The head of every `Relationship<Value>`: no stored property depends on `Value`, so the
/// offset of `slot` is the same for every value type and the binding of a new object writes it
/// without generic code.
enum RelationshipLayout {
  static let slot = MemoryLayout<Relationship<[ModelObject]>>.offset(of: \.slot)!
}

/// The type of a relationship property: an optional model object or an array of them.
public protocol RelationshipValue {
  /// The model class the relationship points at.
  static var destinationType: ModelObject.Type { get }
  /// Whether the relationship holds many objects.
  static var isToMany: Bool { get }
  /// Builds the property value from related objects.
  static func fromModels(_ models: [ModelObject]) -> Self
  /// The related objects.
  var models: [ModelObject] { get }
}

extension Optional: RelationshipValue where Wrapped: PersistentModel {
  /// `Wrapped`.
  public static var destinationType: ModelObject.Type { Wrapped.self }
  /// `false`.
  public static var isToMany: Bool { false }
  /// The first object, or `nil`.
  public static func fromModels(_ models: [ModelObject]) -> Wrapped? {
    models.first.map { $0 as! Wrapped }
  }
  /// The object, or none.
  public var models: [ModelObject] { self.map { [$0] } ?? [] }
}

extension Array: RelationshipValue where Element: PersistentModel {
  /// `Element`.
  public static var destinationType: ModelObject.Type { Element.self }
  /// `true`.
  public static var isToMany: Bool { true }
  /// The objects, in order.
  ///
  /// Stops with a message if an object is not an `Element`.
  ///
  /// - Complexity: O(n) type comparisons; the array is reinterpreted, not copied. Every
  ///   object of a relationship is an instance of its destination class (a class with no Swift
  ///   type of its own is made as its nearest ancestor that has one, the destination at
  ///   least), and an array of class references has the same layout whatever its element
  ///   class.
  public static func fromModels(_ models: [ModelObject]) -> [Element] {
    let element = ObjectIdentifier(Element.self)
    for model in models where ObjectIdentifier(type(of: model)) != element && !(model is Element) {
      preconditionFailure("a related object, a \(type(of: model)), is not a \(Element.self)")
    }
    return unsafeBitCast(models, to: [Element].self)
  }
  /// The objects, in order.
  public var models: [ModelObject] { self }
}
