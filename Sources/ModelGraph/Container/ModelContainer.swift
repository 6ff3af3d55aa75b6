import Synchronization

/// The store of a set of model classes, shared by every ``ModelContext`` made on it.
///
/// ```swift
/// let container = try ModelContainer(
///   for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
/// Registering a base class is enough: its subclasses are registered the first time they are
/// inserted, fetched or named in a type test. A container is `Sendable`; contexts are not.
public final class ModelContainer: Sendable {
  /// The engine's store.
  public let store: Store
  /// The configurations the container was made with.
  public let configurations: [ModelConfiguration]
  private let classes = Mutex<ClassTable>(ClassTable())

  struct ClassTable: @unchecked Sendable {
    // @unchecked Sendable: metatypes of model classes are immutable; reached only via the mutex.
    var entityByClass: [ObjectIdentifier: Int] = [:]
    var classByEntity: [Int: PersistentModel.Type] = [:]
  }

  /// Makes a container for model classes and their subclasses.
  ///
  /// - Parameters:
  ///   - types: The model classes; listing subclasses is allowed, not required.
  ///   - configurations: Where the data lives; in memory when omitted.
  /// - Throws: ``SchemaError`` naming the class and property of the first problem found: a
  ///   stored property that is not marked, an unsupported attribute type, a property declared
  ///   twice in one hierarchy, an inverse that is not a relationship.
  public convenience init(
    for types: PersistentModel.Type..., configurations: ModelConfiguration...
  ) throws {
    try self.init(for: types, configurations: configurations)
  }

  /// Makes a container for an array of model classes.
  public init(for types: [PersistentModel.Type], configurations: [ModelConfiguration] = []) throws {
    store = Store()
    self.configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
    for type in types { _ = try entityIndex(for: type) }
  }

  /// The entity index of `type`, registering it (and its ancestors and relationship
  /// destinations) on first use.
  func entityIndex(for type: PersistentModel.Type) throws -> Int {
    let key = ObjectIdentifier(type)
    if let index = classes.withLock({ $0.entityByClass[key] }) { return index }
    var descriptions: [EntityDescription] = []
    var lineage: [PersistentModel.Type] = []
    var next: PersistentModel.Type? = type
    while let current = next {
      let info = ModelClassInfo.info(for: current)
      descriptions.insert(try info.entityDescription(), at: 0)
      lineage.append(current)
      next = info.parentClass
    }
    let catalog = try store.register(descriptions)
    let index = classes.withLock { table in
      for model in lineage {
        let entity = catalog.entity(named: String(describing: model))!.index
        table.entityByClass[ObjectIdentifier(model)] = entity
        table.classByEntity[entity] = table.classByEntity[entity] ?? model
      }
      return table.entityByClass[key]!
    }
    for model in lineage {
      for field in ModelClassInfo.info(for: model).relationshipWrappers {
        _ = try entityIndex(for: field.type.destinationType)
      }
    }
    return index
  }

  /// The model class of entity `index`.
  func modelClass(forEntity index: Int) -> PersistentModel.Type? {
    classes.withLock { $0.classByEntity[index] }
  }
}
