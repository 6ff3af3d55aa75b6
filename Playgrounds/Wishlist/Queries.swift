import Foundation
import ModelGraph

/// The fetches behind the wishlist's screens.
enum Queries {
  /// Achieved goals, the most recently achieved first.
  static var achievedGoals: FetchDescriptor<Goal> {
    FetchDescriptor(
      predicate: #Predicate { $0.dateAchieved != nil },
      sortBy: [SortDescriptor(\.dateAchieved, order: .reverse)])
  }

  /// Goals not achieved yet, in their display order.
  static var upcomingGoals: FetchDescriptor<Goal> {
    FetchDescriptor(
      predicate: #Predicate { $0.dateAchieved == nil }, sortBy: [SortDescriptor(\.sortOrder)])
  }

  /// The `count` most recently created trips.
  static func recentTrips(_ count: Int) -> FetchDescriptor<Trip> {
    var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.createdDate, order: .reverse)])
    descriptor.fetchLimit = count
    return descriptor
  }

  /// The trips of one collection, by name; the collection is a value known only at run time.
  static func trips(in collection: TripCollection) -> FetchDescriptor<Trip> {
    // `#Predicate` cannot name an enum case: compare with a captured value.
    let wanted = collection
    return FetchDescriptor(
      predicate: #Predicate { $0.collection == wanted }, sortBy: [SortDescriptor(\.name)])
  }

  /// Trips whose name or destination contains `text` (ignoring case and accents), by name.
  static func trips(matching text: String) -> FetchDescriptor<Trip> {
    FetchDescriptor(
      predicate: #Predicate {
        $0.name.localizedStandardContains(text) || $0.destination.localizedStandardContains(text)
      },
      sortBy: [SortDescriptor(\.name)])
  }

  /// Activities of some trip whose name contains `text`, by name.
  static func activities(matching text: String) -> FetchDescriptor<Activity> {
    FetchDescriptor(
      predicate: #Predicate { $0.trip != nil && $0.name.localizedStandardContains(text) },
      sortBy: [SortDescriptor(\.name)])
  }

  /// Trips marked complete.
  static var completeTrips: FetchDescriptor<Trip> {
    FetchDescriptor(predicate: #Predicate { $0.isComplete })
  }

  /// Activities that are done.
  static var completeActivities: FetchDescriptor<Activity> {
    FetchDescriptor(predicate: #Predicate { $0.isComplete })
  }

  /// The trip named `name`, if there is one.
  static func trip(named name: String) -> FetchDescriptor<Trip> {
    var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })
    descriptor.fetchLimit = 1
    return descriptor
  }
}
