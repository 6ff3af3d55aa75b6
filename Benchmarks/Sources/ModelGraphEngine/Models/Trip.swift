import BenchmarkKit
import ModelGraph

/// Why a personal trip is taken, stored as its raw value.
enum Reason: Int, Codable, Sendable, PersistentValue, CaseIterable {
  case vacation = 0
  case family = 1
  case adventure = 2
}

/// A trip, as a SwiftData user declares it with ModelGraph: the base class of the hierarchy,
/// with the workload's indexes (`identifier` is unique, so it has one without a declaration).
class Trip: PersistentModel, IndexedModel {
  @Attribute var name: String
  @Attribute var destination: String
  @Attribute var startDate: Date
  @Attribute var endDate: Date
  @Attribute(.unique) var identifier: UUID
  @Attribute var budget: Double
  @Relationship(deleteRule: .cascade, inverse: \Accommodation.trip)
  var accommodations: [Accommodation]
  @Relationship(deleteRule: .cascade, inverse: \Activity.trip)
  var activities: [Activity]

  /// An ordered index on the start date (W2, W6, W8, W9).
  class var indexes: [ModelIndex] { [.ordered(\Trip.startDate)] }

  /// A trip with every base property set and no children yet.
  convenience init(_ record: TripRecord) {
    self.init()
    setBase(record)
  }

  /// Sets the base class's attributes from a generated record.
  final func setBase(_ record: TripRecord) {
    name = record.name
    destination = record.destination
    startDate = Date(seconds: record.startDate)
    endDate = Date(seconds: record.endDate)
    identifier = record.identifier
    budget = record.budget
  }
}

/// A business trip.
final class BusinessTrip: Trip {
  @Attribute var company: String
  @Attribute var expenseReport: String?
  @Attribute var meetingAgenda: String?

  /// A hash index on the company (W3).
  override class var indexes: [ModelIndex] { [.hash(\BusinessTrip.company)] }
}

/// A personal trip.
final class PersonalTrip: Trip {
  @Attribute var reason: Reason
  @Attribute var companions: [String]
}
