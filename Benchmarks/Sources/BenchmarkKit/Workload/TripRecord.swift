package import Foundation

/// The class of a generated trip.
package enum TripKind: Int, Sendable {
  /// A plain `Trip`.
  case trip = 0
  /// A `BusinessTrip`.
  case business = 1
  /// A `PersonalTrip`.
  case personal = 2
}

/// The reason of a personal trip, stored as its raw value.
package enum TripReason: Int, Sendable {
  /// A holiday.
  case vacation = 0
  /// A visit to family.
  case family = 1
  /// Something risky.
  case adventure = 2
}

/// One generated trip with every stored property of its class.
///
/// Properties of the other classes are `nil` or empty.
package struct TripRecord: Sendable {
  /// The class of the trip.
  package var kind: TripKind
  /// "Trip i".
  package var name: String
  /// "City k".
  package var destination: String
  /// Seconds since 1970.
  package var startDate: Int64
  /// Seconds since 1970.
  package var endDate: Int64
  /// Unique across all trips.
  package var identifier: UUID
  /// In currency units, with two decimals.
  package var budget: Double
  /// `BusinessTrip` only.
  package var company: String?
  /// `BusinessTrip` only, optional.
  package var expenseReport: String?
  /// `BusinessTrip` only, optional.
  package var meetingAgenda: String?
  /// `PersonalTrip` only.
  package var reason: TripReason?
  /// `PersonalTrip` only; empty elsewhere.
  package var companions: [String]
}

/// One generated accommodation; `trip` is the index of its trip in ``DataSet/trips``.
package struct AccommodationRecord: Sendable {
  /// "Stay j".
  package var name: String
  /// In currency units, with two decimals.
  package var nightlyRate: Double
  /// Index of the owning trip.
  package var trip: Int
}

/// One generated activity; `trip` is the index of its trip in ``DataSet/trips``.
package struct ActivityRecord: Sendable {
  /// "Act j".
  package var name: String
  /// True for about 30% of activities.
  package var isComplete: Bool
  /// Seconds since 1970, up to 30 days before the trip starts.
  package var dateCreated: Int64
  /// Index of the owning trip.
  package var trip: Int
}
