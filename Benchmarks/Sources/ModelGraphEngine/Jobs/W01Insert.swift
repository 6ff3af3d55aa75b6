package import BenchmarkKit
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W1: a fresh in-memory container; every trip inserted with its accommodations and
  /// activities assigned to its relationships (the children are inserted with it), then one
  /// save.
  package func load(_ dataSet: DataSet) throws -> Tally {
    let container = try ModelContainer(
      for: Trip.self, Accommodation.self, Activity.self,
      configurations: try storeConfiguration())
    let context = ModelContext(container)
    Self.insert(dataSet, into: context)
    try context.save()
    self.container = container
    self.context = context
    return Tally(count: dataSet.objectCount)
  }

  /// Inserts every trip of `dataSet` with its accommodations and activities (unsaved).
  static func insert(_ dataSet: DataSet, into context: ModelContext) {
    for (index, record) in dataSet.trips.enumerated() {
      let trip = Self.makeTrip(record)
      trip.accommodations = dataSet.accommodations[(2 * index)..<(2 * index + 2)].map {
        Accommodation(name: $0.name, nightlyRate: $0.nightlyRate)
      }
      trip.activities = dataSet.activities[(3 * index)..<(3 * index + 3)].map {
        Activity(
          name: $0.name, isComplete: $0.isComplete, dateCreated: Date(seconds: $0.dateCreated))
      }
      context.insert(trip)
    }
  }

  /// A new object of the record's class with every attribute set.
  static func makeTrip(_ record: TripRecord) -> Trip {
    switch record.kind {
    case .trip:
      return Trip(record)
    case .business:
      let trip = BusinessTrip()
      trip.setBase(record)
      trip.company = record.company ?? ""
      trip.expenseReport = record.expenseReport
      trip.meetingAgenda = record.meetingAgenda
      return trip
    case .personal:
      let trip = PersonalTrip()
      trip.setBase(record)
      trip.reason = Reason(rawValue: record.reason?.rawValue ?? 0) ?? .vacation
      trip.companions = record.companions
      return trip
    }
  }
}
