import Foundation

extension SQLiteEngine {
  /// W6: the first 1 000 trips by start date, then their accommodations and activities in one
  /// query each (`trip IN (…)`, as Core Data prefetches), all materialized and linked.
  func prefetchPlan(_ database: SQLiteDatabase) throws -> JobPlan {
    let tail = "ORDER BY startDate LIMIT 1000"
    let trips = try database.prepare(layout.deepTripQuery(where: "1", tail))
    let firstIDs =
      "SELECT id FROM ("
      + layout.deepTripQuery(where: "1", tail) { _ in "id, startDate" } + ")"
    let stays = try database.prepare(
      "SELECT trip, name, nightlyRate FROM accommodation WHERE trip IN (\(firstIDs))")
    let activities = try database.prepare(
      "SELECT trip, name, isComplete, dateCreated FROM activity WHERE trip IN (\(firstIDs))")
    return .timed {
      var byID: [Int64: PlainTrip] = [:]
      byID.reserveCapacity(1_000)
      while try trips.step() {
        byID[TripRowReader.id(trips)] = TripRowReader.trip(trips)
      }
      trips.reset()
      while try stays.step() {
        guard let trip = byID[stays.int64(0)] else { continue }
        trip.accommodations.append(
          PlainAccommodation(name: stays.string(1), nightlyRate: stays.double(2), trip: trip))
      }
      stays.reset()
      while try activities.step() {
        guard let trip = byID[activities.int64(0)] else { continue }
        trip.activities.append(
          PlainActivity(
            name: activities.string(1), isComplete: activities.int64(2) != 0,
            dateCreated: Date(seconds: activities.int64(3)), trip: trip))
      }
      activities.reset()
      var prefetch = PrefetchTally()
      for trip in byID.values {
        prefetch.addTrip()
        for stay in trip.accommodations { prefetch.add(nightlyRate: stay.nightlyRate) }
        for activity in trip.activities { prefetch.add(isComplete: activity.isComplete) }
      }
      return prefetch.tally
    }
  }
}
