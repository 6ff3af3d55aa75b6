import ModelGraphCore

/// The schema a set of model classes declares, without a store: the catalog of the classes,
/// their ancestors and relationship destinations, and the initial values of their attributes.
struct ModelSchema {
  /// The classes, listed ones first, then ancestors and destinations as found.
  let classes: [ModelObject.Type]
  /// The entities of the classes.
  let catalog: SchemaCatalog
  /// Entity name -> attribute name -> initial value, for attributes that declare one.
  let defaults: [String: [String: ModelValue]]

  /// The schema of `types`.
  ///
  /// - Throws: ``SchemaError`` for a class that cannot be a model, or two classes of the same
  ///   name with different definitions.
  init(_ types: [ModelObject.Type]) throws {
    let classes = ModelSchema.closure(of: types)
    var descriptions: [EntityDescription] = []
    for type in classes {
      descriptions.append(try ModelClassInfo.info(for: type).persistedDescription())
    }
    self.classes = classes
    catalog = try SchemaCatalog().adding(descriptions)
    var defaults: [String: [String: ModelValue]] = [:]
    for type in classes {
      let info = ModelClassInfo.info(for: type)
      defaults[info.entityName] = ModelSchema.initialValues(of: info)
    }
    self.defaults = defaults
  }

  /// `types`, their ancestors and their relationship destinations, each once.
  private static func closure(of types: [ModelObject.Type]) -> [ModelObject.Type] {
    var seen = Set<ObjectIdentifier>()
    var classes: [ModelObject.Type] = []
    var queue = types
    var next = 0
    while next < queue.count {
      let type = queue[next]
      next += 1
      guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
      classes.append(type)
      let info = ModelClassInfo.info(for: type)
      if let parent = info.parentClass { queue.append(parent) }
      for field in info.relationshipWrappers { queue.append(field.type.destinationType) }
    }
    return classes
  }

  /// The initial values the attributes of a new object of the class hold.
  static func initialValues(of info: ModelClassInfo) -> [String: ModelValue] {
    info.withPrototype { initialValues(of: info, in: $0) }
  }

  /// The initial values the attributes of `object`, a new object of the class, hold.
  static func initialValues(of info: ModelClassInfo, in object: ModelObject)
    -> [String: ModelValue]
  {
    let base = Unmanaged.passUnretained(object).toOpaque()
    var values: [String: ModelValue] = [:]
    for field in info.attributeWrappers {
      guard let reader = field.type as? any _AttributeInitialValue.Type,
        let value = reader.initialStoredValue(at: base + field.offset)
      else { continue }
      values[field.name] = value
    }
    return values
  }

  /// The entity descriptions without indexes and default values, for comparing schemas by
  /// what the data means: a file's schema matches a version whatever indexes either declares
  /// (``EntityDescription/hasSameDefinition(as:)``).
  var descriptions: Set<EntityDescription> { Set(catalog.entities.map(\.description.definition)) }
}
