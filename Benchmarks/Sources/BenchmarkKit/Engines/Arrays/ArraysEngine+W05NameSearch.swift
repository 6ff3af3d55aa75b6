import Foundation

extension ArraysEngine {
  /// W5: trips whose name contains "99", case-insensitive, sorted by name, first 100.
  ///
  /// - Complexity: O(N + k log k) for k matches.
  func nameSearch() -> Tally {
    var checksum = StartDateChecksum()
    let page = trips.filter { $0.name.range(of: "99", options: .caseInsensitive) != nil }
      .sorted { $0.name < $1.name }
      .prefix(100)
    for trip in page { checksum.add(trip.startSeconds) }
    return checksum.tally
  }
}
