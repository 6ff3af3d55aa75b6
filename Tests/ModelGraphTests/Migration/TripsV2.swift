import Foundation
import ModelGraph

/// Version 2, a lightweight step from version 1: `name` renamed to `title`, `notes` removed,
/// `rating` added with an initial value and `budget` as an optional, the `PersonalTrip`
/// subclass added, `accommodations` added as the inverse of `Accommodation.trip`, whose delete
/// rule becomes nullify.
enum TripsV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Trip.self, BusinessTrip.self, PersonalTrip.self, Accommodation.self]
  }

  class Trip: PersistentModel {
    @Attribute(originalName: "name") var title: String
    @Attribute var startDate: Date
    @Attribute var rating = 3
    @Attribute var budget: Double?
    @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
    var accommodations: [Accommodation]
  }

  final class BusinessTrip: Trip {
    @Attribute var company: String
  }

  final class PersonalTrip: Trip {
    @Attribute var reason = "leisure"
  }

  final class Accommodation: PersistentModel {
    @Attribute var name: String
    @Relationship var trip: Trip?
  }
}
