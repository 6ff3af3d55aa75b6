import ModelGraph

/// Why a personal trip is taken.
enum Reason: String, Codable, Sendable, PersistentValue, CaseIterable {
  case vacation
  case family
  case adventure
}

/// The base class of the trip hierarchy shared by several suites (each suite makes its own
/// container, so the classes can be shared).
class Trip: PersistentModel {
  @Attribute var name: String
  @Attribute var startDate: Date
  @Attribute(.unique) var identifier: UUID
  @Attribute(.preserveValueOnDeletion) var auditCode: String?
  @Transient var scratch = 0

  convenience init(name: String, startDate: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
    self.init()
    self.name = name
    self.startDate = startDate
    self.identifier = UUID()
  }
}

class BusinessTrip: Trip {
  @Attribute var company: String

  convenience init(name: String, company: String) {
    self.init(name: name)
    self.company = company
  }
}

class PersonalTrip: Trip {
  @Attribute var reason: Reason
  @Attribute var companions: [String]

  convenience init(name: String, reason: Reason, companions: [String] = []) {
    self.init(name: name)
    self.reason = reason
    self.companions = companions
  }
}

/// A context on a new in-memory container registered for `Trip` only.
func makeTripContext() throws -> ModelContext {
  try makeInMemoryContext(Trip.self)
}

/// Saves `count` trips named "trip N", in turn a `Trip`, a `BusinessTrip` (company "company N")
/// and a `PersonalTrip` (companions `companions(N)`), and returns a new context on their
/// container: it holds no handle yet, so its first fetch makes every object.
func freshContextWithSavedTrips(
  _ count: Int, companions: (Int) -> [String] = { _ in [] }
) throws -> ModelContext {
  let context = try makeTripContext()
  for index in 0..<count {
    switch index % 3 {
    case 0: context.insert(Trip(name: "trip \(index)"))
    case 1: context.insert(BusinessTrip(name: "trip \(index)", company: "company \(index)"))
    default:
      context.insert(
        PersonalTrip(name: "trip \(index)", reason: .family, companions: companions(index)))
    }
  }
  try context.save()
  return ModelContext(context.container)
}

/// The names of `trips`, sorted.
func sortedNames(_ trips: [Trip]) -> [String] { trips.map(\.name).sorted() }
