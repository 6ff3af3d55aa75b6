/// How a migration treats a change it cannot carry the stored data across.
public enum MigrationMode: Sendable, Hashable {
  /// Refuse it: ``MigrationError/Code/notLightweight``.
  case lightweight
  /// Leave the column for code to fill: an attribute holds placeholder values (listed in
  /// ``MigratedVersion/unsetAttributes``), a relationship starts empty.
  case custom
}

/// An attribute of one concrete entity: the entity's index and the attribute's slot.
public struct MigrationSlot: Sendable, Hashable {
  /// The entity's index in the target catalog.
  public var entity: Int
  /// The attribute's (or relationship's) slot.
  public var slot: Int

  /// Makes a slot reference.
  public init(entity: Int, slot: Int) {
    self.entity = entity
    self.slot = slot
  }
}

/// A store version brought to a newer catalog.
public struct MigratedVersion: Sendable {
  /// The migrated version: same rows, generations and version number, newer catalog.
  public var version: StoreVersion
  /// Attributes whose stored values could not be carried over (``MigrationMode/custom`` only):
  /// every live row holds a placeholder until code sets it.
  public var unsetAttributes: [MigrationSlot]
}

extension StoreVersion {
  /// This version's data in the shape of `target`: properties mapped by name or by
  /// `originalName`, entities by name, and every object keeping its row and generation, so
  /// identifiers do not change.
  ///
  /// - Added attributes get the default in `defaults` (`entity name -> attribute name ->
  ///   value`), or `nil` when optional; `T` becomes `T?` as it is, and `T?` becomes `T` when
  ///   no live value is `nil` or a default fills them.
  /// - Removed attributes, relationships and entities are dropped; references to objects of a
  ///   removed entity are removed from the relationships that held them.
  /// - An added relationship whose inverse was stored is filled from it (in row order of the
  ///   inverse side); other added relationships start empty. A to-one relationship may become
  ///   to-many.
  /// - Unique attributes that were not unique before are checked for duplicates.
  /// - Throws: ``MigrationError`` naming the entity and property of a change `mode` refuses,
  ///   or of data the target schema rejects.
  /// - Complexity: O(rows of the changed columns); unchanged columns share their chunks.
  public func migrated(
    to target: SchemaCatalog, defaults: [String: [String: ModelValue]] = [:],
    mode: MigrationMode
  ) throws -> MigratedVersion {
    var migration = VersionMigration(source: self, target: target, defaults: defaults, mode: mode)
    return try migration.run()
  }
}
