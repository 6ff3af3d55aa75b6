import Foundation
import ModelGraph

/// Version 1 of the migration tests' schema: trips with notes, business trips, and
/// accommodations that point at their trip (no inverse; the delete rule is deny).
enum TripsV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Trip.self, BusinessTrip.self, Accommodation.self]
  }

  class Trip: PersistentModel {
    @Attribute var name: String
    @Attribute var startDate: Date
    @Attribute var notes = ""

    convenience init(name: String, day: Double) {
      self.init()
      self.name = name
      self.startDate = Date(timeIntervalSince1970: day * 86_400)
    }
  }

  final class BusinessTrip: Trip {
    @Attribute var company: String

    convenience init(name: String, day: Double, company: String) {
      self.init(name: name, day: day)
      self.company = company
    }
  }

  final class Accommodation: PersistentModel {
    @Attribute var name: String
    @Relationship(deleteRule: .deny) var trip: Trip?

    convenience init(name: String, trip: Trip?) {
      self.init()
      self.name = name
      self.trip = trip
    }
  }
}
