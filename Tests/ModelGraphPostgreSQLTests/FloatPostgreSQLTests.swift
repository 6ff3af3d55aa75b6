import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A class whose `Float` attribute the database keeps in a `double precision` column.
private final class PGProbe: PersistentModel {
  @Attribute var name: String
  @Attribute var reading: Float
}

/// Sensors whose value is a `Double`.
enum SensorV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Sensor.self] }

  final class Sensor: PersistentModel {
    @Attribute var value: Double
  }
}

/// The value narrowed to a `Float`.
enum SensorV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Sensor.self] }

  final class Sensor: PersistentModel {
    @Attribute var value: Float
  }
}

/// Version 1 to 2, lightweight.
enum SensorPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [SensorV1.self, SensorV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: SensorV1.self, toVersion: SensorV2.self)]
  }
}

extension PostgreSQLStoreSuites {
  /// A `Float` attribute on PostgreSQL: the database's schema record keeps it, and a value
  /// another client wrote into the `double precision` column that is no `Float` value is
  /// refused when it is read, naming it, instead of reading as another value.
  @Suite("Float columns") struct FloatColumns {
    @Test("Float survives a reopen; a row holding no Float value refuses the load, naming it")
    func nonFloatRow() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container([PGProbe.self], at: url))
        let probe = PGProbe()
        probe.name = "p"
        probe.reading = 0.1
        context.insert(probe)
        try context.save()
      }
      do {
        let container = try TestServer.container([PGProbe.self], at: url)
        #expect(container.automaticMigration.isEmpty)
        let context = ModelContext(container)
        let tenth: Float = 0.1
        let found = try context.fetch(
          FetchDescriptor<PGProbe>(predicate: #Predicate { $0.reading == tenth }))
        #expect(found.map(\.reading) == [tenth])
      }
      _ = try TestServer.query("UPDATE \"PGProbe\" SET reading = 0.1 RETURNING id", at: url)
      #expect {
        let context = ModelContext(try TestServer.container([PGProbe.self], at: url))
        try context.validateStoredValues()
        _ = try context.fetch(FetchDescriptor<PGProbe>()).count
      } throws: { error in
        "\(error)".contains(
          "PGProbe.reading of row 0: 0.1 is no Float value (the nearest is 0.10000000149011612)")
      }
    }

    @Test(
      "a lightweight stage to Float refuses a stored value that is no Float value, and passes once it is one",
      arguments: [false, true])
    func plannedNarrowing(fetched: Bool) throws {
      let base = try TestServer.freshURL()
      // Resident, the stage runs in memory; fetched, in SQL.
      let url = fetched ? PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(base) : base
      do {
        let context = ModelContext(try TestServer.container(SensorV1.models, at: url))
        let sensor = SensorV1.Sensor()
        sensor.value = 1e300
        context.insert(sensor)
        try context.save()
      }
      let open = {
        try ModelContainer(
          for: SensorV2.models, migrationPlan: SensorPlan.self,
          configurations: [ModelConfiguration(url: url)])
      }
      let holder = fetched ? "row 0" : "Sensor/0.0"
      // Out of Float's range, and so small it rounds to zero: casting either to real fails in
      // SQL, so the check must not.
      for (stored, problem) in [
        ("1e300", "1e+300 is out of the range of Float"),
        ("1e-50", "1e-50 is no Float value (the nearest is 0.0)"),
        ("0.1", "0.1 is no Float value (the nearest is 0.10000000149011612)"),
      ] {
        _ = try TestServer.query(
          "UPDATE \"Sensor\" SET value = \(stored) RETURNING id", at: base)
        #expect {
          _ = try open()
        } throws: { error in
          (error as? MigrationError)?.code == .invalidData
            && "\(error)".contains(
              "Sensor.value is Float now, but \(holder) holds a value it cannot: \(problem)")
        }
      }
      #expect(try TestServer.query("SELECT value FROM \"Sensor\"", at: base) == ["0.1"])
      _ = try TestServer.query("UPDATE \"Sensor\" SET value = 0.25 RETURNING id", at: base)
      let context = ModelContext(try open())
      #expect(try context.fetch(FetchDescriptor<SensorV2.Sensor>()).map(\.value) == [0.25])
    }
  }
}
