import Foundation
import ModelGraph

/// Why a personal trip is taken.
enum Reason: Int, Codable, Sendable, PersistentValue, CaseIterable {
  case vacation
  case family
  case adventure
}

/// The base class of the hierarchy: a fetch of `Trip` returns business and personal trips too.
class Trip: PersistentModel {
  @Attribute var name: String
  @Attribute var destination: String
  @Attribute var startDate: Date
  @Attribute(.unique) var identifier: UUID
  @Attribute(.preserveValueOnDeletion) var auditCode: String?
  @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
  var accommodations: [Accommodation]
  @Transient var scratch = 0

  convenience init(name: String, destination: String, startDate: Date) {
    self.init()
    self.name = name
    self.destination = destination
    self.startDate = startDate
    self.identifier = UUID()
  }
}

/// A trip for work, paid by a company.
class BusinessTrip: Trip {
  @Attribute var company: String
  @Attribute var perDiem: Double = 0
}

/// A trip for oneself, with a reason and companions.
class PersonalTrip: Trip {
  @Attribute var reason: Reason
  @Attribute var companions: [String]
}

/// Where a trip stays; it points at the base class, so any kind of trip can hold it.
class Accommodation: PersistentModel {
  @Attribute var name: String
  @Relationship var trip: Trip?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}
