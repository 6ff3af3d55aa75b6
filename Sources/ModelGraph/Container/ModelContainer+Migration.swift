extension ModelContainer {
  /// Makes a container for model classes whose stored data `migrationPlan` migrates.
  ///
  /// ```swift
  /// let container = try ModelContainer(
  ///   for: TripsV2.Trip.self, migrationPlan: TripsMigrationPlan.self,
  ///   configurations: ModelConfiguration(url: url))
  /// ```
  /// See ``init(for:migrationPlan:configurations:fileIO:)``.
  public convenience init(
    for types: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?,
    configurations: ModelConfiguration...
  ) throws {
    try self.init(for: types, migrationPlan: migrationPlan, configurations: configurations)
  }
}
