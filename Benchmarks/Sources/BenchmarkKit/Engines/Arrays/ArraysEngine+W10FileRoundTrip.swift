import Foundation

extension ArraysEngine {
  /// W10.save: encodes every trip into `Data` and writes it durably.
  ///
  /// - Complexity: O(N).
  func savePlan(scratch: String) -> JobPlan {
    let path = scratch + "/arrays.bin"
    return .timed(
      TimedJob(
        setUp: { DurableFile.remove(path) },
        body: { [unowned self] in
          var encoder = PlainTripEncoder(capacity: trips.count * 256)
          encoder.encode(trips)
          try DurableFile.write(encoder.data, to: path)
          return Tally(count: Self.objectCount(trips), bytes: encoder.data.count)
        }))
  }

  /// W10.load: reads the saved file into a fresh array of trips (dropped after each run).
  ///
  /// - Complexity: O(N).
  func loadPlan(scratch: String) -> JobPlan {
    let path = scratch + "/arrays.bin"
    var loaded: [PlainTrip] = []
    return .timed(
      TimedJob(
        setUp: { [unowned self] in
          if !FileManager.default.fileExists(atPath: path) {
            var encoder = PlainTripEncoder(capacity: trips.count * 256)
            encoder.encode(trips)
            try DurableFile.write(encoder.data, to: path)
          }
        },
        body: {
          let data = try Data(contentsOf: URL(fileURLWithPath: path))
          loaded = try data.withUnsafeBytes { bytes in
            var decoder = PlainTripDecoder(bytes)
            return try decoder.decode()
          }
          return Tally(count: Self.objectCount(loaded), bytes: data.count)
        },
        tearDown: { loaded = [] }))
  }

  /// Trips plus their accommodations and activities.
  static func objectCount(_ trips: [PlainTrip]) -> Int {
    var count = 0
    for trip in trips { count += 1 + trip.accommodations.count + trip.activities.count }
    return count
  }
}
