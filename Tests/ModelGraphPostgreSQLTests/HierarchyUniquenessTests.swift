import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Saves a truck with plate `AB-1`, number 7 of depot North, and a vehicle `V-2`, number 8.
  static func seedVehicles(_ url: URL) throws {
    let context = ModelContext(try TestServer.container(vehicleTypes, at: url))
    let truck = Truck(plate: "AB-1", number: 7)
    truck.axles = 3
    context.insert(truck)
    context.insert(Vehicle(plate: "V-2", number: 8))
    try context.save()
  }

  /// Saves a truck with plate `S-1`, number 30, two axles and `serial`.
  static func seedTruck(serial: UUID, at url: URL) throws {
    let context = ModelContext(try TestServer.container(vehicleTypes, at: url))
    let truck = Truck(plate: "S-1", number: 30)
    truck.serial = serial
    truck.axles = 2
    context.insert(truck)
    try context.save()
  }

  @Test("a unique value held in another class of the hierarchy, not in memory, fails the save")
  func uniqueAcrossHierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedVehicles(url)
    let container = try TestServer.container(vehicleTypes, at: Self.fetchedOnly(url))
    let context = ModelContext(container)
    // The truck's plate, on a plain vehicle: another table, and neither object in memory.
    let copy = Vehicle(plate: "AB-1", number: 1)
    context.insert(copy)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    let violation = try #require(error.violations.first)
    #expect(error.violations.count == 1)
    #expect(violation.entity == "Vehicle")
    #expect(violation.property == "plate")
    #expect(violation.identifier == copy.persistentModelID)
    #expect(violation.rule == "value \"AB-1\" is not unique")
    #expect(try TestServer.query("SELECT count(*) FROM \"Vehicle\"", at: url) == ["1"])
    // Fixed, it saves.
    copy.plate = "C-3"
    try context.save()
    #expect(
      try TestServer.query("SELECT plate FROM \"Vehicle\" ORDER BY plate", at: url) == [
        "C-3", "V-2",
      ])
    // A changed value is checked too: the vehicle V-2 takes the truck's plate.
    let second = try #require(
      try context.fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { $0.plate == "V-2" }))
        .first)
    second.plate = "AB-1"
    let changed = try #require(throws: ModelError.self) { try context.save() }
    #expect(changed.violations.map(\.identifier) == [second.persistentModelID])
    context.rollback()
    #expect(try TestServer.query("SELECT plate FROM \"Truck\"", at: url) == ["AB-1"])
  }

  @Test("a compound unique rule across the hierarchy is checked the same way")
  func compoundAcrossHierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedVehicles(url)
    let context = ModelContext(
      try TestServer.container(vehicleTypes, at: Self.fetchedOnly(url)))
    // Number 7 of depot North is the truck's: a new truck elsewhere in the depot clashes.
    let vehicle = Vehicle(plate: "N-7", depot: "North", number: 7)
    context.insert(vehicle)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.map(\.property) == ["depot+number"])
    #expect(error.violations.map(\.rule) == ["value (\"North\", 7) is not unique"])
    #expect(error.violations.map(\.identifier) == [vehicle.persistentModelID])
    // In another depot the same number is free.
    vehicle.depot = "South"
    try context.save()
    #expect(
      try TestServer.query("SELECT depot FROM \"Vehicle\" WHERE number = 7", at: url) == ["South"])
  }

  @Test("two servers save one plate in two classes at once: one save is refused")
  func concurrentAcrossHierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedVehicles(url)
    let first = ModelContext(try TestServer.container(vehicleTypes, at: Self.fetchedOnly(url)))
    let second = ModelContext(try TestServer.container(vehicleTypes, at: Self.fetchedOnly(url)))
    let truck = Truck(plate: "Z-9", number: 20)
    truck.axles = 2
    first.insert(truck)
    second.insert(Vehicle(plate: "Z-9", number: 21))
    try first.save()
    let error = try #require(throws: ModelError.self) { try second.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.map(\.rule) == ["value \"Z-9\" is not unique"])
    #expect(
      try TestServer.query(
        "SELECT plate FROM \"Vehicle\" UNION ALL SELECT plate FROM \"Truck\" ORDER BY 1", at: url)
        == ["AB-1", "V-2", "Z-9"])
  }

  @Test("an optional unique UUID: a repeat across the hierarchy fails, nil values never clash")
  func optionalUUIDAcrossHierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedVehicles(url)
    let serial = UUID()
    try Self.seedTruck(serial: serial, at: url)
    let context = ModelContext(try TestServer.container(vehicleTypes, at: Self.fetchedOnly(url)))
    // Both seeded vehicles have no serial, and neither has this one.
    context.insert(Vehicle(plate: "S-2", number: 31))
    try context.save()
    let copy = Vehicle(plate: "S-3", number: 32)
    copy.serial = serial
    context.insert(copy)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.property) == ["serial"])
    #expect(error.violations.map(\.identifier) == [copy.persistentModelID])
    #expect(
      error.violations.map(\.rule) == ["value \(serial.uuidString) is not unique"])
  }
}
