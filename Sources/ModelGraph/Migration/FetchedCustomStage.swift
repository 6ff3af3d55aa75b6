import ModelGraphCore
internal import ModelGraphPostgreSQL

/// Runs one custom stage in a PostgreSQL database that migrates itself (`residency=fetched`):
/// the closure gets a read-only context on the objects as they were and a context on the
/// migrated tables, both keeping only what they fetch in memory and running their fetches,
/// counts and saves inside the migration's transaction. Then the same checks as in memory
/// (``CustomStage``), and the save.
struct FetchedCustomStage {
  let label: String
  let old: ModelSchema
  let new: ModelSchema
  /// The old version's classes with no object in memory.
  let oldVersion: StoreVersion
  /// The new version's classes with no object in memory.
  let prepared: StoreVersion
  let migrate: (ModelContext, ModelContext) throws -> Void

  /// Runs the closure through `stores`, checks it, and saves the new context.
  ///
  /// - Throws: What the closure or the new context's save throws, or ``MigrationError`` when
  ///   the closure saved the old context, or left an attribute unset that the stage owes.
  func run(_ stores: PostgreSQLStageStores) throws {
    let oldStore = Store(loading: oldVersion)
    let newStore = Store(loading: prepared)
    stores.old.attach(to: oldStore)
    stores.new.attach(to: newStore)
    let oldContext = ModelContext(try ModelContainer(store: oldStore, types: old.classes))
    let newContext = ModelContext(try ModelContainer(store: newStore, types: new.classes))
    try migrate(oldContext, newContext)
    guard stores.oldSaves == 0 else {
      throw MigrationError(
        .incompleteCustomStage,
        message: "the \(label) saved its old context, which is read-only")
    }
    if !stores.owed.isEmpty {
      guard stores.newSaves == 0 else {
        throw MigrationError(
          .incompleteCustomStage,
          message: "the \(label) saved its new context itself while it owed values of "
            + stores.owed.map { "\($0.entity).\($0.attribute)" }.joined(separator: ", ")
            + "; let the stage save it when the closure returns")
      }
      try checkSet(stores, session: newContext.session)
    }
    try newContext.save()
  }

  /// Every object in the database must have had each owed attribute written (or been
  /// deleted) by the new context's changes.
  private func checkSet(_ stores: PostgreSQLStageStores, session: Session) throws {
    let changes = Dictionary(
      session.changeSet.map { ($0.entity, $0) }, uniquingKeysWith: { first, _ in first })
    var details: [String] = []
    for owed in stores.owed {
      guard let entity = session.catalog.entity(named: owed.entity),
        let slot = entity.attributes.firstIndex(where: { $0.name == owed.attribute })
      else { continue }
      let change = changes[entity.index]
      let written = change?.updatedRows.filter { $0.slots.contains(slot) }.map(\.row) ?? []
      let deleted = change?.deletedKeys.map { Int($0.row) } ?? []
      let missing = try stores.objects(of: owed.entity, outside: written + deleted)
      guard missing.count > 0, let first = missing.first else { continue }
      details.append(
        "\(owed.entity).\(owed.attribute) on \(missing.count) object"
          + "\(missing.count == 1 ? "" : "s") (first \(owed.entity)/\(first).0)")
    }
    guard details.isEmpty else {
      throw MigrationError(
        .incompleteCustomStage,
        message: "the \(label) left unset: " + details.joined(separator: ", "))
    }
  }
}

extension StoreLoader {
  /// With a store that keeps only fetched objects in memory, when the plan's route from
  /// `stored` (its classes, no objects) runs a custom stage: every stage as a step the
  /// database runs, each checked first on `stored` (so a change a lightweight stage refuses
  /// fails before any SQL), and the store of the newest version with no object in memory;
  /// `nil` when no stage of the route is custom.
  ///
  /// - Throws: ``MigrationError`` as the in-memory migration throws before any closure runs.
  func stagesInDatabase(from stored: StoreVersion, path: String) throws -> (
    store: Store, steps: [PostgreSQLMigrationStep]
  )? {
    guard let plan else { return nil }
    let route = try plan.route(from: stored.catalog, path: path)
    guard route.contains(where: { if case .custom = $0.stage { true } else { false } }) else {
      return nil
    }
    var current = stored
    var steps: [PostgreSQLMigrationStep] = []
    for (stage, from, to) in route {
      let target = plan.versions[to].model
      switch stage {
      case .lightweight:
        let next = try current.migrated(
          to: target.catalog, defaults: target.defaults, mode: .lightweight
        ).version
        steps.append(
          PostgreSQLMigrationStep(
            label: stage.label, source: current.catalog, target: target.catalog,
            defaults: target.defaults))
        current = next
      case .custom(_, _, let migrate):
        let prepared = try current.migrated(
          to: target.catalog, defaults: target.defaults, mode: .custom
        ).version
        let runner = FetchedCustomStage(
          label: stage.label, old: plan.versions[from].model, new: target, oldVersion: current,
          prepared: prepared, migrate: migrate)
        steps.append(
          PostgreSQLMigrationStep(
            label: stage.label, source: current.catalog, target: target.catalog,
            defaults: target.defaults, custom: runner.run))
        current = prepared
      }
    }
    return (Store(loading: current), steps)
  }
}
