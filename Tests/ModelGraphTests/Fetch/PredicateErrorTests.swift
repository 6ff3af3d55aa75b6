import ModelGraph
import Testing

@Suite("Predicates that throw")
struct PredicateErrorTests {
  @Test("a predicate that throws fails the fetch with predicateFailed")
  func fetchThrows() throws {
    let context = try makeTripContext()
    context.insert(Trip(name: "No code"))
    try context.save()
    let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.auditCode! == "x" })
    let error = try #require(throws: ModelError.self) { try context.fetch(descriptor) }
    #expect(error.code == .predicateFailed)
    #expect(throws: ModelError.self) { try context.fetchCount(descriptor) }
  }

  @Test("a delete whose predicate throws deletes nothing")
  func deleteThrows() throws {
    let context = try makeTripContext()
    let coded = Trip(name: "Coded")
    coded.auditCode = "x"
    context.insert(coded)
    context.insert(Trip(name: "No code"))
    try context.save()
    #expect(throws: ModelError.self) {
      try context.delete(model: Trip.self, where: #Predicate { $0.auditCode! == "x" })
    }
    #expect(!context.hasChanges)
    #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 2)
  }
}
