import Foundation
import ModelGraph

/// Store files in the versions of the migration tests.
enum MigrationFiles {
  /// Identifiers of the version 1 objects, by name.
  typealias Identifiers = [String: PersistentIdentifier]

  /// Writes a version 1 store: Paris (a trip) and Summit (a business trip of Acme), Hotel
  /// at Paris, Lodge at Summit, Tent at no trip.
  @discardableResult
  static func writeV1(_ url: URL) throws -> Identifiers {
    let container = try ModelContainer(
      for: TripsV1.models, configurations: [ModelConfiguration(url: url)])
    let context = ModelContext(container)
    let paris = TripsV1.Trip(name: "Paris", day: 1)
    paris.notes = "museums"
    let summit = TripsV1.BusinessTrip(name: "Summit", day: 2, company: "Acme")
    let stays = [
      TripsV1.Accommodation(name: "Hotel", trip: paris),
      TripsV1.Accommodation(name: "Lodge", trip: summit),
      TripsV1.Accommodation(name: "Tent", trip: nil),
    ]
    for stay in stays { context.insert(stay) }
    try context.save()
    try container.snapshot()
    var identifiers: Identifiers = [:]
    for trip in [paris, summit] { identifiers[trip.name] = trip.persistentModelID }
    for stay in stays { identifiers[stay.name] = stay.persistentModelID }
    return identifiers
  }

  /// Writes a version 2 store: version 1's, migrated, with Paris rated 5.
  @discardableResult
  static func writeV2(_ url: URL) throws -> Identifiers {
    let identifiers = try writeV1(url)
    let container = try ModelContainer(
      for: TripsV2.models, migrationPlan: LightweightPlan.self,
      configurations: [ModelConfiguration(url: url)])
    let context = ModelContext(container)
    let paris = try requireTrip(context, "Paris")
    paris.rating = 5
    try context.save()
    try container.snapshot()
    return identifiers
  }

  /// The bytes of the file at `url`.
  static func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}

/// The version 2 trip titled `title`.
func requireTrip(_ context: ModelContext, _ title: String) throws -> TripsV2.Trip {
  let trips = try context.fetch(
    FetchDescriptor<TripsV2.Trip>(predicate: #Predicate { $0.title == title }))
  guard trips.count == 1 else {
    throw StageFailure(message: "\(trips.count) trips titled \(title)")
  }
  return trips[0]
}
