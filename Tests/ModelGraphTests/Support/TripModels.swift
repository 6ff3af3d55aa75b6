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

/// The names of `trips`, sorted.
func sortedNames(_ trips: [Trip]) -> [String] { trips.map(\.name).sorted() }
