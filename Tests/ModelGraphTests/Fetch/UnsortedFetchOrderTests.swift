import ModelGraph
import Testing

@Suite("Fetch order without a sort")
struct UnsortedFetchOrderTests {
  @Test(
    "without a sort, results come class by class; rows freed by deletes are reused",
    .disabled(if: testsRunOnPostgreSQL, "a shared PostgreSQL store never reuses a row"))
  func classThenInsertion() throws {
    let context = try makeTripContext()
    let first = Trip(name: "first")
    context.insert(first)
    context.insert(BusinessTrip(name: "business", company: "c"))
    context.insert(Trip(name: "second"))
    context.insert(Trip(name: "third"))
    try context.save()
    context.delete(first)
    try context.save()
    context.insert(Trip(name: "fourth"))
    try context.save()

    let trips = try context.fetch(FetchDescriptor<Trip>())
    let plain = trips.filter { type(of: $0) == Trip.self }.map(\.name)
    #expect(plain.sorted() == ["fourth", "second", "third"])
    #expect(plain.first == "fourth", "the row of the deleted first trip is reused")
    let classes = trips.map { String(describing: type(of: $0)) }
    #expect(classes == ["Trip", "Trip", "Trip", "BusinessTrip"])
  }
}
