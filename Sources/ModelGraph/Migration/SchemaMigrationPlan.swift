/// The versions of an app's schema, oldest first, and the stages that lead from one to the
/// next.
///
/// ```swift
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///   static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
///   static var stages: [MigrationStage] {
///     [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self)]
///   }
/// }
/// let container = try ModelContainer(
///   for: TripsV2.Trip.self, migrationPlan: TripsMigrationPlan.self,
///   configurations: ModelConfiguration(url: url))
/// ```
/// A file is matched to a version by its stored schema, then migrated stage by stage to the
/// last version of ``schemas``. Two versions with the same schema are refused, since a file
/// could not tell them apart.
public protocol SchemaMigrationPlan {
  /// Every version, oldest first; the last one is the version the code uses.
  static var schemas: [any VersionedSchema.Type] { get }
  /// The stages; at most one starts at each version, and each leads to a later version.
  static var stages: [MigrationStage] { get }
}
