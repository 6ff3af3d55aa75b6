import ModelGraphCore

/// A checked ``SchemaMigrationPlan``: the schema of every version, and the stage leaving each.
///
/// Checking the plan needs no data, so a broken plan fails every time a container opens with
/// it, not only when an old file happens to need it.
struct MigrationRunner {
  struct Version {
    let schema: any VersionedSchema.Type
    let model: ModelSchema
  }

  let plan: any SchemaMigrationPlan.Type
  let versions: [Version]
  /// The stage leaving version `i` (by position in ``versions``), and where it leads.
  let stages: [Int: (stage: MigrationStage, to: Int)]

  /// The newest version: the one the code uses.
  var latest: Version { versions[versions.count - 1] }

  /// Checks `plan`.
  ///
  /// - Throws: ``MigrationError`` with code ``MigrationError/Code/invalidPlan`` for a plan
  ///   without versions, two versions with the same identifier or the same schema, a stage
  ///   naming a version the plan does not list, two stages leaving one version, or a stage
  ///   leading backwards; ``SchemaError`` for a class that cannot be a model.
  init(_ plan: any SchemaMigrationPlan.Type) throws {
    self.plan = plan
    let name = String(describing: plan)
    func invalid(_ message: String) -> MigrationError {
      MigrationError(.invalidPlan, message: "\(name): \(message)")
    }
    guard !plan.schemas.isEmpty else { throw invalid("the plan lists no schemas") }
    var versions: [Version] = []
    for schema in plan.schemas {
      let version = Version(schema: schema, model: try ModelSchema(schema.models))
      if let twin = versions.first(where: {
        $0.schema.versionIdentifier == schema.versionIdentifier
          || $0.model.descriptions == version.model.descriptions
      }) {
        throw invalid(
          "\(twin.schema) (\(twin.schema.versionIdentifier)) and \(schema) "
            + "(\(schema.versionIdentifier)) have the same "
            + (twin.schema.versionIdentifier == schema.versionIdentifier
              ? "version identifier" : "schema; a file could not tell them apart"))
      }
      versions.append(version)
    }
    self.versions = versions
    var stages: [Int: (stage: MigrationStage, to: Int)] = [:]
    for stage in plan.stages {
      let ends = [stage.fromVersion, stage.toVersion].map { end in
        versions.firstIndex { ObjectIdentifier($0.schema) == ObjectIdentifier(end) }
      }
      guard let from = ends[0], let to = ends[1] else {
        throw invalid("the \(stage.label) names a version that schemas does not list")
      }
      guard from < to else {
        throw invalid("the \(stage.label) does not lead to a later version of schemas")
      }
      guard stages[from] == nil else {
        throw invalid("two stages start at version \(stage.fromVersion.versionIdentifier)")
      }
      stages[from] = (stage, to)
    }
    self.stages = stages
  }

  /// The position of the version whose schema the stored catalog has: the one with exactly
  /// its entities, or else the newest that holds each stored entity unchanged (a file need
  /// not hold subclasses that were never used).
  func matchingVersion(_ stored: SchemaCatalog) -> Int? {
    let descriptions = Set(stored.entities.map(\.description.definition))
    if let exact = versions.firstIndex(where: { $0.model.descriptions == descriptions }) {
      return exact
    }
    return versions.lastIndex { descriptions.isSubset(of: $0.model.descriptions) }
  }

  /// The stages that lead a store of schema `stored` to the newest version, in order, each
  /// with the positions (in ``versions``) of the versions it leaves and reaches; empty when
  /// `stored` has the newest version.
  ///
  /// - Throws: ``MigrationError`` for a schema that matches no version, or a missing stage.
  func route(from stored: SchemaCatalog, path: String) throws
    -> [(stage: MigrationStage, from: Int, to: Int)]
  {
    guard var position = matchingVersion(stored) else {
      throw MigrationError(
        .schemaMismatch, path: path,
        differences: stored.differences(to: latest.model.catalog),
        message:
          "the file's schema is none of the versions of \(plan); from the newest "
          + "(\(latest.schema.versionIdentifier)) it differs in")
    }
    var route: [(stage: MigrationStage, from: Int, to: Int)] = []
    while position != versions.count - 1 {
      guard let (stage, to) = stages[position] else {
        throw MigrationError(
          .invalidPlan, path: path,
          message:
            "the file has version \(versions[position].schema.versionIdentifier) of \(plan), "
            + "and no stage starts there")
      }
      route.append((stage, position, to))
      position = to
    }
    return route
  }

  /// `stored` migrated to the newest version, or `nil` when it has that version already.
  ///
  /// - Throws: ``MigrationError`` (a schema that matches no version, a missing stage, a
  ///   change a lightweight stage cannot make, a custom stage that is incomplete), or what a
  ///   custom stage's closure throws.
  func migrate(_ stored: StoreVersion, path: String) throws -> StoreVersion? {
    let route = try route(from: stored.catalog, path: path)
    guard !route.isEmpty else { return nil }
    var current = stored
    for (stage, from, to) in route {
      let target = versions[to].model
      switch stage {
      case .lightweight:
        current = try current.migrated(
          to: target.catalog, defaults: target.defaults, mode: .lightweight
        ).version
      case .custom(_, _, let migrate):
        current = try CustomStage(
          label: stage.label, old: versions[from].model, new: target, migrate: migrate
        ).run(on: current)
      }
    }
    return current
  }
}
