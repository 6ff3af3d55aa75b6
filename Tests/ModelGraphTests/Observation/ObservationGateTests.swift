import Foundation
import Observation
import Testing

@testable import ModelGraph

/// A context fires trackings only once a read was reported to its registrar: before that, no
/// tracking can observe its objects, and writes skip Observation.
@Suite("Observable model objects: writes before any read")
struct ObservationGateTests {
  @Test("inserts, writes, saves and rollbacks without a read leave the context untracked")
  func writesAloneDoNotOpen() throws {
    let context = try makeInMemoryContext(RLDepartment.self, RLEmployee.self)
    let department = RLDepartment(name: "Sales")
    let employee = RLEmployee(name: "Ada")
    context.insert(department)
    context.insert(employee)
    employee.department = department
    try context.save()
    employee.name = "Grace"
    department.employees = []
    context.rollback()
    context.delete(employee)
    try context.save()
    #expect(!context.observation.mayBeTracked)
  }

  @Test("the first attribute read opens the gate, and a later write fires its tracking")
  func attributeReadOpens() throws {
    let context = try makeInMemoryContext(Trip.self)
    let trip = Trip(name: "Oslo")
    context.insert(trip)
    try context.save()
    trip.name = "Bergen"
    #expect(!context.observation.mayBeTracked)
    let name = track { _ = trip.name }
    #expect(context.observation.mayBeTracked)
    trip.name = "Tromsø"
    #expect(name.value == 1)
  }

  @Test("the first relationship read opens the gate: a write through the inverse fires")
  func relationshipReadOpens() throws {
    let context = try makeInMemoryContext(RLDepartment.self, RLEmployee.self)
    let department = RLDepartment(name: "Sales")
    let employee = RLEmployee(name: "Ada")
    context.insert(department)
    context.insert(employee)
    try context.save()
    #expect(!context.observation.mayBeTracked)
    let employees = track { _ = department.employees }
    employee.department = department
    #expect(employees.value == 1)
  }

  @Test("a read in one context opens no other context's gate")
  func perContext() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let reader = ModelContext(container)
    let writer = ModelContext(container)
    let trip = Trip(name: "Oslo")
    reader.insert(trip)
    try reader.save()
    _ = trip.name
    #expect(reader.observation.mayBeTracked)
    writer.insert(Trip(name: "Bergen"))
    try writer.save()
    #expect(!writer.observation.mayBeTracked)
  }

  @Test("another context's save, taken in before any read, fires nothing; after one, it does")
  func foreignSaves() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let reader = ModelContext(container)
    let writer = ModelContext(container)
    writer.insert(Trip(name: "Oslo"))
    try writer.save()
    let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
    let mirror = try #require(try writer.fetch(FetchDescriptor<Trip>()).first)
    mirror.name = "Bergen"
    try writer.save()
    let before = try reader.fetch(FetchDescriptor<Trip>())
    #expect(before.map(\.persistentModelID) == [trip.persistentModelID])
    #expect(!reader.observation.mayBeTracked)
    let name = track { _ = trip.name }
    #expect(trip.name == "Bergen")
    mirror.name = "Tromsø"
    try writer.save()
    _ = try reader.fetch(FetchDescriptor<Trip>())
    #expect(name.value == 1)
    #expect(trip.name == "Tromsø")
  }
}
