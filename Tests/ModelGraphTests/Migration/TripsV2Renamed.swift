import Foundation
import ModelGraph

/// Version 2 with `BusinessTrip.company` renamed `employer` without `originalName`: a change
/// no plan covers, in a subclass a container is not given.
enum TripsV2Renamed {
  class Trip: PersistentModel {
    @Attribute(originalName: "name") var title: String
    @Attribute var startDate: Date
    @Attribute var rating = 3
    @Attribute var budget: Double?
    @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
    var accommodations: [Accommodation]
  }

  final class BusinessTrip: Trip {
    @Attribute var employer: String
  }

  final class Accommodation: PersistentModel {
    @Attribute var name: String
    @Relationship var trip: Trip?
  }
}

/// Version 2 with Trip's attributes in another order and without `originalName`: the same
/// schema in another layout, which opens without a plan.
enum TripsV2Reordered {
  class Trip: PersistentModel {
    @Attribute var rating = 3
    @Attribute var budget: Double?
    @Attribute var startDate: Date
    @Attribute var title: String
    @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
    var accommodations: [Accommodation]
  }

  final class Accommodation: PersistentModel {
    @Attribute var name: String
    @Relationship var trip: Trip?
  }
}
