import Foundation
import ModelGraph
import ModelGraphCore
import Testing

/// A store may hold classes no Swift type maps to (declared by the runner, or by another
/// app): typed fetches go on working beside them.
@Suite("Fetches beside entities without a Swift class")
struct ForeignEntityFetchTests {
  @Test("a fetch plans over a store that holds an entity with no model class")
  func fetchBesideForeignEntity() throws {
    let container = try makeInMemoryContainer(Trip.self)
    try container.store.register([
      EntityDescription(
        name: "RunnerNote",
        attributes: [AttributeDescription(name: "text", valueType: .string)],
        indexes: [IndexDefinition(.hash, on: "text")])
    ])
    let context = ModelContext(container)
    context.insert(Trip(name: "Oslo"))
    try context.save()
    let name = "Oslo"
    let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
    #expect(found.map(\.name) == ["Oslo"])
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
  }
}
