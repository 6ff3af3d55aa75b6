import Foundation
import ModelGraph
import Testing

/// A set of Codable structs without `PersistentValue`, unique.
final class CSRoute: PersistentModel {
  @Attribute(.unique) var stops: Set<CAWeather>
}

@Suite("Sets of Codable values are stored the same whatever their order")
struct CodableSetTests {
  /// Two equal sets whose iteration orders differ.
  private func equalSetsInOtherOrders() throws -> (Set<CAWeather>, Set<CAWeather>) {
    let elements = (0..<12).map { CAWeather(summary: "stop \($0)", celsius: Double($0)) }
    let first = Set(elements)
    for capacity in [64, 128, 256, 512, 1_024, 2_048] {
      var second = Set<CAWeather>(minimumCapacity: capacity)
      for element in elements.reversed() { second.insert(element) }
      if Array(second) != Array(first) { return (first, second) }
    }
    throw StageFailure(message: "no two iteration orders differ")
  }

  @Test("equal sets in other iteration orders break a unique constraint")
  func uniqueSets() throws {
    let (first, second) = try equalSetsInOtherOrders()
    let context = try makeInMemoryContext(CSRoute.self)
    let a = CSRoute()
    a.stops = first
    let b = CSRoute()
    b.stops = second
    context.insert(a)
    context.insert(b)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(!error.violations.isEmpty && error.violations.allSatisfy { $0.property == "stops" })
  }

  @Test("a set read back equals the set written")
  func roundTrip() throws {
    let (first, _) = try equalSetsInOtherOrders()
    let container = try makeInMemoryContainer(CSRoute.self)
    let context = ModelContext(container)
    let route = CSRoute()
    route.stops = first
    context.insert(route)
    try context.save()
    let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<CSRoute>()).first)
    #expect(fetched.stops == first)
  }
}
