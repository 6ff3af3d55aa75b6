import ModelGraph
import Testing

private func seed(_ context: ModelContext) throws {
  context.insert(Trip(name: "plain"))
  context.insert(BusinessTrip(name: "summit", company: "Acme"))
  context.insert(BusinessTrip(name: "expo", company: "Globex"))
  context.insert(PersonalTrip(name: "beach", reason: .vacation, companions: ["Ann"]))
  context.insert(PersonalTrip(name: "grandma", reason: .family))
  context.insert(PersonalTrip(name: "alps", reason: .adventure))
  context.insert(PersonalTrip(name: "island", reason: .vacation))
  try context.save()
}

private let byName = [SortDescriptor(\Trip.name)]

@Suite("#Predicate type tests over the trip hierarchy")
struct TypePredicateTests {
  @Test("`is` selects a subclass")
  func isTest() throws {
    let context = try makeTripContext()
    try seed(context)
    let business = try context.fetch(
      FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip }, sortBy: byName))
    #expect(business.map(\.name) == ["expo", "summit"])
    #expect(business.allSatisfy { $0 is BusinessTrip })
    let personal = try context.fetchCount(
      FetchDescriptor<Trip>(predicate: #Predicate { $0 is PersonalTrip }))
    #expect(personal == 4)
  }

  @Test("a negated `is` keeps every other class")
  func negatedIsTest() throws {
    let context = try makeTripContext()
    try seed(context)
    let others = try context.fetch(
      FetchDescriptor<Trip>(predicate: #Predicate { !($0 is PersonalTrip) }, sortBy: byName))
    #expect(others.map(\.name) == ["expo", "plain", "summit"])
  }

  @Test("`if let … as?` reads a subclass attribute", arguments: Reason.allCases)
  func conditionalCast(reason: Reason) throws {
    let context = try makeTripContext()
    try seed(context)
    let wanted = reason
    let trips = try context.fetch(
      FetchDescriptor<Trip>(
        predicate: #Predicate {
          if let trip = $0 as? PersonalTrip { trip.reason == wanted } else { false }
        }, sortBy: byName))
    let expected: [String] =
      switch reason {
      case .vacation: ["beach", "island"]
      case .family: ["grandma"]
      case .adventure: ["alps"]
      }
    #expect(trips.map(\.name) == expected)
  }

  @Test("a type test combines with a base attribute and a subclass attribute")
  func combined() throws {
    let context = try makeTripContext()
    try seed(context)
    let vacation: Reason? = .vacation
    let trips = try context.fetch(
      FetchDescriptor<Trip>(
        predicate: #Predicate {
          $0 is BusinessTrip && $0.name != "expo" || ($0 as? PersonalTrip)?.reason == vacation
        }, sortBy: byName))
    #expect(trips.map(\.name) == ["beach", "island", "summit"])
  }

  @Test("a type test inside a shallow fetch of a subclass")
  func shallowWithTypeTest() throws {
    let context = try makeTripContext()
    try seed(context)
    var exactTrips = FetchDescriptor<Trip>(predicate: #Predicate { $0 is BusinessTrip })
    exactTrips.includesSubclasses = false
    let none = try context.fetch(exactTrips)
    #expect(none.isEmpty)
    let acme = try context.fetch(
      FetchDescriptor<BusinessTrip>(predicate: #Predicate { $0.company == "Acme" }))
    #expect(acme.map(\.name) == ["summit"])
  }
}
