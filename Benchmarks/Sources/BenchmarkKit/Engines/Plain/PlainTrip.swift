package import Foundation

/// A trip as a plain Swift class: the hand-written model of an app before it adopts a store.
///
/// The arrays engine keeps these in `[PlainTrip]`; the SQLite engine materializes its rows into
/// them, as an app on SQLite would.
package class PlainTrip {
  /// "Trip i".
  package var name: String
  /// "City k".
  package var destination: String
  /// When the trip starts.
  package var startDate: Date
  /// When the trip ends.
  package var endDate: Date
  /// Unique across trips.
  package var identifier: UUID
  /// In currency units.
  package var budget: Double
  /// Where the traveller stays; each points back with `trip`.
  package var accommodations: [PlainAccommodation] = []
  /// What the traveller does; each points back with `trip`.
  package var activities: [PlainActivity] = []

  /// A trip with no accommodations or activities.
  package init(
    name: String, destination: String, startDate: Date, endDate: Date, identifier: UUID,
    budget: Double
  ) {
    self.name = name
    self.destination = destination
    self.startDate = startDate
    self.endDate = endDate
    self.identifier = identifier
    self.budget = budget
  }

  /// The start date in whole seconds since 1970, as the workload's check sums it.
  @inline(__always)
  package var startSeconds: Int64 { Int64(startDate.timeIntervalSince1970) }
}

/// A business trip.
package final class PlainBusinessTrip: PlainTrip {
  /// "Company k".
  package var company: String
  /// Filed after the trip, if at all.
  package var expenseReport: String?
  /// Planned before the trip, if at all.
  package var meetingAgenda: String?

  /// A business trip with the base properties of `base`.
  package init(
    base: TripRecord, company: String, expenseReport: String?, meetingAgenda: String?
  ) {
    self.company = company
    self.expenseReport = expenseReport
    self.meetingAgenda = meetingAgenda
    super.init(
      name: base.name, destination: base.destination,
      startDate: Date(seconds: base.startDate), endDate: Date(seconds: base.endDate),
      identifier: base.identifier, budget: base.budget)
  }
}

/// A personal trip.
package final class PlainPersonalTrip: PlainTrip {
  /// Why the traveller goes.
  package var reason: TripReason
  /// Who comes along.
  package var companions: [String]

  /// A personal trip with the base properties of `base`.
  package init(base: TripRecord, reason: TripReason, companions: [String]) {
    self.reason = reason
    self.companions = companions
    super.init(
      name: base.name, destination: base.destination,
      startDate: Date(seconds: base.startDate), endDate: Date(seconds: base.endDate),
      identifier: base.identifier, budget: base.budget)
  }
}

extension PlainTrip {
  /// A plain trip of the record's class.
  package static func make(_ record: TripRecord) -> PlainTrip {
    switch record.kind {
    case .trip:
      PlainTrip(
        name: record.name, destination: record.destination,
        startDate: Date(seconds: record.startDate), endDate: Date(seconds: record.endDate),
        identifier: record.identifier, budget: record.budget)
    case .business:
      PlainBusinessTrip(
        base: record, company: record.company ?? "", expenseReport: record.expenseReport,
        meetingAgenda: record.meetingAgenda)
    case .personal:
      PlainPersonalTrip(
        base: record, reason: record.reason ?? .vacation, companions: record.companions)
    }
  }
}

extension Date {
  /// The instant `seconds` whole seconds after 1970-01-01 UTC.
  @inline(__always)
  package init(seconds: Int64) {
    self.init(timeIntervalSince1970: TimeInterval(seconds))
  }
}
