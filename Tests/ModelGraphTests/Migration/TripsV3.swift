import Foundation
import ModelGraph

/// Version 3, a custom step from version 2: `rating` becomes a string of stars, and the
/// `BusinessTrip` subclass is removed (its objects become trips titled "company: title").
enum TripsV3: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(3, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Trip.self, PersonalTrip.self, Accommodation.self]
  }

  class Trip: PersistentModel {
    @Attribute var title: String
    @Attribute var startDate: Date
    @Attribute var rating: String
    @Attribute var budget: Double?
    @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
    var accommodations: [Accommodation]
  }

  final class PersonalTrip: Trip {
    @Attribute var reason = "leisure"
  }

  final class Accommodation: PersistentModel {
    @Attribute var name: String
    @Relationship var trip: Trip?
  }

  /// The stage from version 2: ratings become stars; business trips become trips that keep
  /// their accommodations.
  static func migrate(from old: ModelContext, to new: ModelContext) throws {
    for trip in try old.fetch(FetchDescriptor<TripsV2.Trip>()) {
      let stars = String(repeating: "*", count: trip.rating)
      if let business = trip as? TripsV2.BusinessTrip {
        let copy = Trip()
        copy.title = "\(business.company): \(business.title)"
        copy.startDate = business.startDate
        copy.rating = stars
        copy.budget = business.budget
        new.insert(copy)
        copy.accommodations = business.accommodations.compactMap {
          new.model(for: $0.persistentModelID) as? Accommodation
        }
      } else {
        guard let current = new.model(for: trip.persistentModelID) as? Trip else {
          throw StageFailure(message: "\(trip.persistentModelID) has no new version")
        }
        current.rating = stars
      }
    }
  }
}
