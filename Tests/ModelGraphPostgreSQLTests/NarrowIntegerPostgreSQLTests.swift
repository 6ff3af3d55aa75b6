import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A class whose `Int8` attribute the database keeps in a `bigint` column.
private final class PGGauge: PersistentModel {
  @Attribute var name: String
  @Attribute var small: Int8
}

/// Meters whose reading is an `Int`.
enum MeterV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Meter.self] }

  final class Meter: PersistentModel {
    @Attribute var reading: Int
  }
}

/// The reading narrowed to an `Int8`.
enum MeterV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Meter.self] }

  final class Meter: PersistentModel {
    @Attribute var reading: Int8
  }
}

/// Version 1 to 2, lightweight.
enum MeterPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [MeterV1.self, MeterV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: MeterV1.self, toVersion: MeterV2.self)]
  }
}

extension PostgreSQLStoreSuites {
  /// A narrow integer attribute on PostgreSQL: the database's schema record keeps its width,
  /// and a value another client wrote out of the declared type into the wider column is
  /// refused when it is read, naming it, instead of stopping the process that reads it.
  @Suite("Narrow integer columns") struct NarrowIntegers {
    @Test("the width survives a reopen; a row written out of range refuses the load, naming it")
    func outOfRangeRow() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container([PGGauge.self], at: url))
        let gauge = PGGauge()
        gauge.name = "g"
        gauge.small = 7
        context.insert(gauge)
        try context.save()
      }
      do {
        let container = try TestServer.container([PGGauge.self], at: url)
        #expect(container.automaticMigration.isEmpty)
        #expect(try ModelContext(container).fetch(FetchDescriptor<PGGauge>()).map(\.small) == [7])
      }
      _ = try TestServer.query("UPDATE \"PGGauge\" SET small = 300 RETURNING id", at: url)
      #expect {
        // Reads no attribute: without the check, reading `small` would stop the process.
        let context = ModelContext(try TestServer.container([PGGauge.self], at: url))
        try context.validateStoredValues()
        _ = try context.fetch(FetchDescriptor<PGGauge>()).count
      } throws: { error in
        "\(error)".contains("PGGauge.small of row 0: 300 is out of the range of Int8 (-128...127)")
      }
    }

    @Test(
      "a lightweight stage narrowing a width refuses a stored value out of it, and passes once it fits",
      arguments: [false, true])
    func plannedNarrowing(fetched: Bool) throws {
      let base = try TestServer.freshURL()
      // Resident, the stage runs in memory; fetched, in SQL.
      let url = fetched ? PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(base) : base
      do {
        let context = ModelContext(try TestServer.container(MeterV1.models, at: url))
        let meter = MeterV1.Meter()
        meter.reading = 300
        context.insert(meter)
        try context.save()
      }
      let open = {
        try ModelContainer(
          for: MeterV2.models, migrationPlan: MeterPlan.self,
          configurations: [ModelConfiguration(url: url)])
      }
      #expect {
        _ = try open()
      } throws: { error in
        (error as? MigrationError)?.code == .invalidData
          && "\(error)".contains(
            "Meter.reading is Int8 now, but \(fetched ? "row 0" : "Meter/0.0") holds a value it "
              + "cannot: 300 is out of the range of Int8 (-128...127)")
      }
      #expect(try TestServer.query("SELECT reading FROM \"Meter\"", at: base) == ["300"])
      _ = try TestServer.query("UPDATE \"Meter\" SET reading = -7 RETURNING id", at: base)
      let context = ModelContext(try open())
      #expect(try context.fetch(FetchDescriptor<MeterV2.Meter>()).map(\.reading) == [-7])
    }
  }
}
