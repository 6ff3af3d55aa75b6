import ModelGraph

enum Reason: Int, Codable, Sendable, PersistentValue, CaseIterable {
  case vacation, family, adventure
}

class Trip: PersistentModel {
  @Attribute var name: String
  @Attribute var startDate: Date
  @Attribute(.unique) var identifier: UUID
  @Attribute(.preserveValueOnDeletion) var auditCode: String?
  @Transient var scratch = 0

  convenience init(name: String, startDate: Date) {
    self.init()
    self.name = name
    self.startDate = startDate
    self.identifier = UUID()
  }
}

class BusinessTrip: Trip {
  @Attribute var company: String
}

class PersonalTrip: Trip {
  @Attribute var reason: Reason
  @Attribute var companions: [String]
}

let container = try ModelContainer(
  for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)

let paris = Trip(name: "Paris", startDate: Date(timeIntervalSince1970: 1_700_000_000))
let summit = BusinessTrip(name: "Summit", startDate: Date(timeIntervalSince1970: 1_710_000_000))
summit.company = "Acme"
let beach = PersonalTrip(name: "Beach", startDate: Date(timeIntervalSince1970: 1_720_000_000))
beach.reason = .vacation
beach.companions = ["Ann", "Bo"]
context.insert(paris)
context.insert(summit)
context.insert(beach)
try context.save()

let all = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
print("Deep fetch of Trip:")
for trip in all {
  print("  \(trip.name) as \(type(of: trip))")
}
let business = try context.fetch(FetchDescriptor<BusinessTrip>())
print("Shallow fetch of BusinessTrip: \(business.map { "\($0.name) for \($0.company)" })")
let vacation = Reason.vacation
let personal = try context.fetch(
  FetchDescriptor<Trip>(
    predicate: #Predicate {
      if let trip = $0 as? PersonalTrip { trip.reason == vacation } else { false }
    }))
print("Personal trips for a vacation: \(personal.map(\.name))")
var exact = FetchDescriptor<Trip>()
exact.includesSubclasses = false
print("Exactly Trip: \(try context.fetch(exact).map(\.name))")
print("Count: \(try context.fetchCount(FetchDescriptor<Trip>()))")
