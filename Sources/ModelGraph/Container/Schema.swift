public import ModelGraphCore

/// The model classes of a container, listed once and handed to ``ModelContainer``, as
/// SwiftData's `Schema` is.
///
/// ```swift
/// let schema = Schema([Trip.self, Accommodation.self])
/// let container = try ModelContainer(
///   for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
/// ```
/// As with the class list of ``ModelContainer/init(for:configurations:fileIO:)``, listing a
/// base class is enough: subclasses, ancestors and relationship destinations join the schema
/// when they are first used.
public struct Schema: @unchecked Sendable {
  // @unchecked Sendable: metatypes of model classes are immutable.

  /// A schema version: major, minor and patch numbers (SwiftData's `Schema.Version`).
  public typealias Version = SchemaVersion

  /// The model classes listed.
  public let models: [any PersistentModel.Type]
  /// The version the schema is declared as.
  public let version: Version

  /// A schema of `models`, at `version` (1.0.0 when omitted).
  public init(_ models: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
    self.models = models
    self.version = version
  }

  /// A schema of the models of `versionedSchema`, at its version.
  public init(versionedSchema: any VersionedSchema.Type) {
    self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
  }

  /// The entities the models declare: their attributes, relationships and constraints, with
  /// ancestors and relationship destinations included.
  ///
  /// - Throws: ``SchemaError`` for the first problem found in a class.
  public func entities() throws -> [EntityDescription] {
    try ModelSchema(models).catalog.entities.map(\.description)
  }
}

extension ModelContainer {
  /// Makes a container for the models of `schema`, whose stored data `migrationPlan`
  /// migrates when one is given.
  ///
  /// See ``init(for:migrationPlan:configurations:fileIO:)``.
  public convenience init(
    for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
    configurations: [ModelConfiguration]
  ) throws {
    try self.init(for: schema.models, migrationPlan: migrationPlan, configurations: configurations)
  }

  /// Makes a container for the models of `schema`; in memory when no configuration is given.
  ///
  /// See ``init(for:migrationPlan:configurations:fileIO:)``.
  public convenience init(
    for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
    configurations: ModelConfiguration...
  ) throws {
    try self.init(for: schema.models, migrationPlan: migrationPlan, configurations: configurations)
  }
}
