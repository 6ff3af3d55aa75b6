import Foundation
import ModelGraph
import Testing

@Suite("Uniqueness policies")
struct UniquenessPolicyTests {
  @Test("by default a duplicate unique value throws and nothing is applied")
  func rejectByDefault() throws {
    let context = try makeTripContext()
    let original = Trip(name: "original")
    context.insert(original)
    try context.save()
    let duplicate = Trip(name: "duplicate")
    duplicate.identifier = original.identifier
    context.insert(duplicate)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    #expect(error.violations.contains { $0.property == "identifier" && $0.entity == "Trip" })
    let fresh = ModelContext(context.container)
    #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["original"])
  }

  @Test("upsert updates the saved object and the new instance stands for it")
  func upsertMerges() throws {
    let context = try makeTripContext()
    let original = Trip(name: "original")
    context.insert(original)
    try context.save()
    let identifier = original.identifier
    let id = original.persistentModelID

    let other = ModelContext(context.container)
    other.uniquenessPolicy = .upsert
    let replacement = Trip(name: "replacement")
    replacement.identifier = identifier
    other.insert(replacement)
    try other.save()

    #expect(replacement.persistentModelID == id)
    #expect(replacement.name == "replacement")
    let fresh = ModelContext(context.container)
    let trips = try fresh.fetch(FetchDescriptor<Trip>())
    #expect(trips.map(\.name) == ["replacement"])
    #expect(trips.first?.identifier == identifier)
  }

  @Test("upsert into a context that holds the saved object marks the new instance deleted")
  func upsertWithRegisteredTarget() throws {
    let context = try makeTripContext()
    context.uniquenessPolicy = .upsert
    let original = Trip(name: "original")
    context.insert(original)
    try context.save()
    let replacement = Trip(name: "replacement")
    replacement.identifier = original.identifier
    context.insert(replacement)
    try context.save()
    #expect(original.name == "replacement")
    #expect(replacement.isDeleted)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
  }
}
