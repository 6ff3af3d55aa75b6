package import Foundation

/// The trip catalogue at scale N: N trips, 2N accommodations and 3N activities.
///
/// Generated before any timing from ``SplitMix64`` seeded 42, drawing in exactly the order of
/// benchmark-workloads.md. Accommodations `2i` and `2i+1` and activities `3i` … `3i+2` belong to
/// trip `i`.
package struct DataSet: Sendable {
  /// The trips, in generation order (the trip's index is its `i`).
  package var trips: [TripRecord] = []
  /// Two per trip, in order.
  package var accommodations: [AccommodationRecord] = []
  /// Three per trip, in order.
  package var activities: [ActivityRecord] = []

  /// Every object of the data set: 6N.
  package var objectCount: Int { trips.count + accommodations.count + activities.count }

  /// Generates the data set for `scale` trips.
  ///
  /// - Complexity: O(N).
  package init(scale: Int) {
    trips.reserveCapacity(scale)
    accommodations.reserveCapacity(2 * scale)
    activities.reserveCapacity(3 * scale)
    var random = SplitMix64(seed: 42)
    for index in 0..<scale {
      generateTrip(index, &random)
    }
  }

  private mutating func generateTrip(_ index: Int, _ random: inout SplitMix64) {
    let roll = random.below(5)
    let kind: TripKind = roll == 0 ? .trip : roll <= 2 ? .business : .personal
    let destination = "City \(random.below(500))"
    let span = WorkloadCalendar.end - WorkloadCalendar.start
    let startDate = WorkloadCalendar.start + random.below(span)
    let endDate = startDate + (1 + random.below(21)) * WorkloadCalendar.day
    let identifier = Self.identifier(random.next(), random.next())
    let budget = Double(10_000 + random.below(990_001)) / 100
    var trip = TripRecord(
      kind: kind, name: "Trip \(index)", destination: destination, startDate: startDate,
      endDate: endDate, identifier: identifier, budget: budget, company: nil,
      expenseReport: nil, meetingAgenda: nil, reason: nil, companions: [])
    switch kind {
    case .business:
      trip.company = "Company \(random.below(1_000))"
      trip.expenseReport = random.below(2) == 0 ? nil : "Report \(index)"
      trip.meetingAgenda = random.below(2) == 0 ? nil : "Agenda \(index)"
    case .personal:
      trip.reason = TripReason(rawValue: random.below(3))
      let count: Int = random.below(4)
      let friends: [Int] = [random.below(100), random.below(100), random.below(100)]
      trip.companions = friends.prefix(count).map { "Friend \($0)" }
    case .trip:
      break
    }
    trips.append(trip)
    for offset in 0..<2 {
      let rate = Double(5_000 + random.below(45_001)) / 100
      accommodations.append(
        AccommodationRecord(name: "Stay \(2 * index + offset)", nightlyRate: rate, trip: index))
    }
    let complete: [Bool] = (0..<3).map { _ in random.below(10) < 3 }
    for offset in 0..<3 {
      let created = startDate - random.below(30 * WorkloadCalendar.day)
      activities.append(
        ActivityRecord(
          name: "Act \(3 * index + offset)", isComplete: complete[offset], dateCreated: created,
          trip: index))
    }
  }

  /// The UUID whose 16 bytes are the little-endian bytes of `first`, then of `second`.
  package static func identifier(_ first: UInt64, _ second: UInt64) -> UUID {
    let a = first.littleEndian
    let b = second.littleEndian
    return withUnsafeBytes(of: (a, b)) { raw in
      UUID(
        uuid: (
          raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
          raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
        ))
    }
  }
}
