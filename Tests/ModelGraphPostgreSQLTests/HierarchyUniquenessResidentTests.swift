import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// A unique rule of a class with subclasses, on containers that hold every object: the
  /// engine checks it in memory against the version a save is based on, which the save's
  /// version check guarantees the database is at.
  @Suite("Hierarchy uniqueness, all objects in memory") struct HierarchyUniquenessResident {
    @Test("a value held in another class of the hierarchy fails the save, as in memory")
    func uniqueAcrossHierarchy() throws {
      let url = try TestServer.freshURL()
      try FetchedResidency.seedVehicles(url)
      let context = ModelContext(try TestServer.container(vehicleTypes, at: url))
      let copy = Vehicle(plate: "AB-1", number: 1)
      context.insert(copy)
      let error = try #require(throws: ModelError.self) { try context.save() }
      #expect(error.code == .validationFailed)
      #expect(error.violations.map(\.identifier) == [copy.persistentModelID])
      #expect(error.violations.map(\.rule) == ["value \"AB-1\" is not unique"])
      #expect(try TestServer.query("SELECT count(*) FROM \"Vehicle\"", at: url) == ["1"])
      copy.plate = "C-3"
      try context.save()
      #expect(try TestServer.query("SELECT count(*) FROM \"Vehicle\"", at: url) == ["2"])
    }

    @Test("two servers save one plate in two classes, the second before it heard of the first")
    func concurrentAcrossHierarchy() throws {
      let url = try TestServer.freshURL()
      try FetchedResidency.seedVehicles(url)
      let first = ModelContext(try TestServer.container(vehicleTypes, at: url))
      let second = ModelContext(try TestServer.container(vehicleTypes, at: url))
      for round in 0..<5 {
        let plate = "Z-\(round)"
        let truck = Truck(plate: plate, number: 20 + 2 * round)
        truck.axles = 2
        first.insert(truck)
        let vehicle = Vehicle(plate: plate, number: 21 + 2 * round)
        second.insert(vehicle)
        try first.save()
        // Saved at once: the second container is almost always still behind the first's save
        // (refused by the version check, then caught up and checked again in memory).
        let error = try #require(throws: ModelError.self) { try second.save() }
        #expect(error.code == .validationFailed)
        #expect(error.violations.map(\.identifier) == [vehicle.persistentModelID])
        #expect(error.violations.map(\.rule) == ["value \"\(plate)\" is not unique"])
        second.rollback()
        #expect(
          try TestServer.query(
            "SELECT count(*) FROM (SELECT plate FROM \"Vehicle\" UNION ALL "
              + "SELECT plate FROM \"Truck\") AS p WHERE plate = '\(plate)'", at: url) == ["1"])
      }
    }
  }
}
