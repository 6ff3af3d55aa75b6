import ModelGraphCore

/// Opens a container's snapshot file: loads it, and brings its schema to the code's, through a
/// migration plan or (without one) by an automatic lightweight migration when every
/// difference is one that needs no decision.
struct StoreLoader {
  /// The classes to register: those given, and the plan's newest version's.
  let types: [ModelObject.Type]
  let plan: MigrationRunner?

  /// Checks the plan (if any) and that `types` belong to its newest version.
  init(types: [ModelObject.Type], plan: (any SchemaMigrationPlan.Type)?) throws {
    let runner = try plan.map(MigrationRunner.init)
    self.plan = runner
    self.types = types + (runner?.latest.schema.models ?? [])
    // Without a plan the classes are compared with a file only, when there is one.
    guard let runner else { return }
    let given = try ModelSchema(types)
    let latest = runner.latest.model.catalog
    let differences = given.catalog.differences(to: latest).filter {
      $0.change != .entityRemoved && $0.change != .entityAdded
    }
    let extra = given.catalog.entities.filter { latest.entity(named: $0.name) == nil }
    guard differences.isEmpty, extra.isEmpty,
      given.descriptions.isSubset(of: runner.latest.model.descriptions)
    else {
      throw MigrationError(
        .invalidPlan,
        differences: differences
          + extra.map { SchemaDifference(entity: $0.name, change: .entityAdded) },
        message: "the container's classes are not those of the newest version "
          + "(\(runner.latest.schema.versionIdentifier)) of \(runner.plan); they differ in")
    }
  }

  /// The store a file held (`stored`, its journal replayed), migrated; an empty store when
  /// there is no file.
  ///
  /// - Returns: The store; whether it differs from what the file holds (migrated or laid out
  ///   anew), in which case the caller writes it back before saving into the journal; and the
  ///   changes migrated without a plan.
  /// - Throws: ``MigrationError`` when the migration fails (a narrower integer width or `Float`
  ///   a stored value does not fit among others); ``ModelError`` with code
  ///   ``ModelError/Code/storedValueMismatch`` when the migrated store holds an integer outside
  ///   its declared width or a `Double` that is no `Float` value in a `Float` attribute. The
  ///   caller has written nothing then.
  func load(_ stored: StoreVersion?, path: String) throws -> LoadedStore {
    guard let stored else { return LoadedStore(store: Store(), changed: true) }
    let loaded = try migrate(stored, path: path)
    try Self.checkWidths(of: loaded.store.version, path: path)
    return loaded
  }

  /// Refuses a store holding an integer its attribute's declared Swift type cannot hold
  /// (``AttributeDescription/integerWidth``), which reading it would stop the process at, or a
  /// `Double` that is no `Float` value in a `Float` attribute
  /// (``AttributeDescription/isFloat32``), which would read as another value: a journal
  /// record or a database row written by a process that did not check the width.
  static func checkWidths(of version: StoreVersion, path: String) throws {
    let (violations, count) = version.widthViolations()
    guard count > 0 else { return }
    throw ModelError(
      .storedValueMismatch,
      message: "\(path): \(count) stored value\(count == 1 ? " is" : "s are") no value "
        + "of the type the class declares (an integer out of its range, or no Float value); "
        + "rewrite such values (with the runner, or through a class that declares a wider "
        + "type) before opening with this one",
      violations: violations.map {
        ModelError.Violation(
          entity: $0.entity, property: $0.property,
          identifier: PersistentIdentifier(
            entityName: $0.entity, row: $0.key.row, generation: $0.key.generation),
          rule: $0.detail)
      })
  }

  /// ``load(_:path:)`` before the width check: through the plan, or without one.
  private func migrate(_ stored: StoreVersion, path: String) throws -> LoadedStore {
    if let plan {
      guard let migrated = try plan.migrate(stored, path: path) else {
        return LoadedStore(store: Store(loading: stored), changed: false)
      }
      var steps: [MigrationStep] = []
      var source = stored.catalog
      for (stage, _, to) in try plan.route(from: stored.catalog, path: path) {
        let target = plan.versions[to].model
        steps.append(
          MigrationStep(
            label: stage.label, source: source, target: target.catalog,
            defaults: target.defaults))
        source = target.catalog
      }
      return LoadedStore(store: Store(loading: migrated), changed: true, steps: steps)
    }
    let (loaded, migrated, defaults) = try unplanned(stored, path: path)
    return LoadedStore(
      store: Store(loading: loaded),
      changed: loaded.tables.count != stored.tables.count
        || zip(loaded.tables, stored.tables).contains { $0 !== $1 },
      automaticMigration: migrated,
      steps: [
        MigrationStep(
          label: "migration without a plan", source: stored.catalog, target: loaded.catalog,
          defaults: defaults)
      ])
  }

  /// Without a plan, the stored entities the code declares are brought to the code's schema
  /// when every difference is one an automatic lightweight migration makes
  /// (``AutomaticMigration``); their layout (declaration order) may differ too.
  private func unplanned(_ stored: StoreVersion, path: String) throws
    -> (StoreVersion, [SchemaDifference], [String: [String: ModelValue]])
  {
    let given = try ModelSchema(types)
    let found = unlistedClasses(of: stored.catalog, reached: given.catalog)
    let schema = found.isEmpty ? given : try ModelSchema(types + found)
    let sorted = stored.catalog.automaticMigration(to: schema.catalog)
    guard sorted.needsPlan.isEmpty else {
      throw MigrationError(
        .schemaMismatch, path: path, differences: sorted.needsPlan,
        message: "the file's schema differs from the model classes in a way that needs a "
          + "decision, and no migration plan covers it"
          + sorted.hints.map { " (\($0))" }.joined() + "; it differs in")
    }
    let sameLayout = schema.catalog.entities.allSatisfy { entity in
      stored.catalog.entity(named: entity.name).map { $0.description == entity.description }
        ?? true
    }
    if sameLayout { return (stored, [], schema.defaults) }
    let storedOnly = stored.catalog.entities.map(\.description).filter {
      schema.catalog.entity(named: $0.name) == nil
    }
    let target = try SchemaCatalog().adding(
      schema.catalog.entities.map(\.description) + storedOnly)
    let migrated = try stored.migrated(to: target, defaults: schema.defaults, mode: .lightweight)
    return (migrated.version, sorted.automatic, schema.defaults)
  }

  /// The classes of stored entities that `types` do not reach (subclasses, typically), found
  /// by name beside one of `types` (in its module or enclosing type).
  private func unlistedClasses(of stored: SchemaCatalog, reached: SchemaCatalog)
    -> [ModelObject.Type]
  {
    // A class's mangled name ends with its own name's length, the name and `C`; the rest names
    // its context, in which a sibling class is found the same way.
    let contexts = Set(
      types.compactMap { type -> String? in
        let own = String(describing: type)
        let suffix = "\(own.utf8.count)\(own)C"
        guard let mangled = _mangledTypeName(type), mangled.hasSuffix(suffix) else { return nil }
        return String(mangled.dropLast(suffix.count))
      })
    return stored.entities.compactMap { entity -> ModelObject.Type? in
      guard reached.entity(named: entity.name) == nil else { return nil }
      for context in contexts.sorted() {
        let name = "\(context)\(entity.name.utf8.count)\(entity.name)C"
        if let found = _typeByName(name) as? ModelObject.Type { return found }
      }
      return nil
    }
  }
}

/// A store loaded from a file.
struct LoadedStore {
  /// The store, migrated.
  var store: Store
  /// Whether it differs from what the file holds, so the caller writes it back.
  var changed: Bool
  /// The changes migrated without a plan.
  var automaticMigration: [SchemaDifference] = []
  /// When changed by a migration, its steps: the schemas and the initial values of each.
  var steps: [MigrationStep] = []
}

/// One step of a migration: the schema before and after, and the initial values of the
/// attributes it adds.
struct MigrationStep {
  /// `lightweight stage 1.0.0 -> 2.0.0`, or `migration without a plan`.
  var label: String
  var source: SchemaCatalog
  var target: SchemaCatalog
  /// Entity name -> attribute name -> initial value.
  var defaults: [String: [String: ModelValue]]
}
