package import Foundation

/// An accommodation as a plain Swift class, pointing back to its trip.
package final class PlainAccommodation {
  /// "Stay j".
  package var name: String
  /// In currency units.
  package var nightlyRate: Double
  /// The owning trip (weak: the trip's array owns the accommodation).
  package weak var trip: PlainTrip?

  /// An accommodation of `trip`.
  package init(name: String, nightlyRate: Double, trip: PlainTrip?) {
    self.name = name
    self.nightlyRate = nightlyRate
    self.trip = trip
  }
}

/// An activity as a plain Swift class, pointing back to its trip.
package final class PlainActivity {
  /// "Act j".
  package var name: String
  /// Whether it is done.
  package var isComplete: Bool
  /// When it was planned.
  package var dateCreated: Date
  /// The owning trip (weak: the trip's array owns the activity).
  package weak var trip: PlainTrip?

  /// An activity of `trip`.
  package init(name: String, isComplete: Bool, dateCreated: Date, trip: PlainTrip?) {
    self.name = name
    self.isComplete = isComplete
    self.dateCreated = dateCreated
    self.trip = trip
  }
}
