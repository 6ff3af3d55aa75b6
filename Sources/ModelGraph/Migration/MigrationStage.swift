/// One step of a ``SchemaMigrationPlan``: from one version of the schema to a later one.
public enum MigrationStage {
  /// Migrates without code: attributes added (with an initial value, or optional), removed
  /// or renamed through `originalName`; entities (subclasses) added or removed; relationships
  /// added or renamed; delete rules and count limits changed. Identifiers do not change.
  case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
  /// Migrates with code that sees both versions at once.
  ///
  /// `migrate` gets a read-only context on the data in the old version's classes (`old`) and
  /// a context on the new version's classes (`new`), which already holds everything a
  /// lightweight stage would carry over, with the same identifiers. Copy or transform values
  /// and relationships from `old` into `new`: find an object's new version with
  /// `new.model(for: oldObject.persistentModelID)`. Attributes a lightweight stage cannot
  /// carry (a changed type, a required attribute without an initial value) must be set on
  /// every object of `new`, or the stage fails; relationships it cannot carry start empty.
  /// The stage saves `new` when `migrate` returns. If `migrate` throws, the error propagates
  /// unchanged and nothing is migrated.
  case custom(
    fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
    migrate: (_ old: ModelContext, _ new: ModelContext) throws -> Void)

  /// The version the stage starts from.
  public var fromVersion: any VersionedSchema.Type {
    switch self {
    case .lightweight(let from, _), .custom(let from, _, _): from
    }
  }

  /// The version the stage leads to.
  public var toVersion: any VersionedSchema.Type {
    switch self {
    case .lightweight(_, let to), .custom(_, let to, _): to
    }
  }

  /// `lightweight 1.0.0 -> 2.0.0` or `custom ...`.
  var label: String {
    let kind = if case .lightweight = self { "lightweight" } else { "custom" }
    return "\(kind) stage \(fromVersion.versionIdentifier) -> \(toVersion.versionIdentifier)"
  }
}
