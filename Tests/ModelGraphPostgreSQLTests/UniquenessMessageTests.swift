import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// A unique rule broken at the commit (found by PostgreSQL, against an object not in memory)
  /// reads as the same rule broken in memory.
  @Suite("Uniqueness messages") struct UniquenessMessages {
    /// The rule texts of the save of `make`'s vehicle, on a container that holds every object
    /// (checked in memory) and on one that holds only fetched objects (checked by PostgreSQL).
    private func rules(_ make: () -> Vehicle, url: URL) throws -> (memory: [String], sql: [String])
    {
      var texts: [[String]] = []
      for target in [url, PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)] {
        let context = ModelContext(try TestServer.container(vehicleTypes, at: target))
        context.insert(make())
        let error = try #require(throws: ModelError.self) { try context.save() }
        texts.append(error.violations.map(\.rule))
      }
      return (texts[0], texts[1])
    }

    @Test("a string, a compound rule and a UUID read the same from PostgreSQL as from memory")
    func sameTextBothWays() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seedVehicles(url)
      let serial = UUID()
      try PostgreSQLStoreSuites.FetchedResidency.seedTruck(serial: serial, at: url)
      let plate = try rules({ Vehicle(plate: "AB-1", number: 1) }, url: url)
      #expect(plate.memory == ["value \"AB-1\" is not unique"])
      #expect(plate.sql == plate.memory)
      let compound = try rules({ Vehicle(plate: "N-7", depot: "North", number: 7) }, url: url)
      #expect(compound.memory == ["value (\"North\", 7) is not unique"])
      #expect(compound.sql == compound.memory)
      let uuid = try rules(
        {
          let copy = Vehicle(plate: "S-3", number: 32)
          copy.serial = serial
          return copy
        }, url: url)
      #expect(uuid.memory == ["value \(serial.uuidString) is not unique"])
      #expect(uuid.sql == uuid.memory)
    }
  }
}
