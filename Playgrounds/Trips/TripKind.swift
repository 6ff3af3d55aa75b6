import Foundation
import ModelGraph

/// The trip list's filter: all trips, business trips or personal trips.
enum TripKind: String, CaseIterable {
  case all
  case business
  case personal

  /// The predicate of the filter; `nil` keeps every trip.
  var predicate: Predicate<Trip>? {
    switch self {
    case .all: return nil
    case .business: return #Predicate<Trip> { $0 is BusinessTrip }
    case .personal: return #Predicate<Trip> { $0 is PersonalTrip }
    }
  }

  /// Trips of this kind, by start date.
  var descriptor: FetchDescriptor<Trip> {
    FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.startDate)])
  }
}
