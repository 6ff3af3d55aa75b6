import Foundation
import ModelGraph
import Testing

/// Offsets and limits at the edges of `Int`, and negative ones:
/// each gets a result or a clear error, never a trap.
@Suite("Fetch windows and descriptors at the edges")
struct FetchWindowTests {
  func seeded() throws -> ModelContext {
    let context = try makeTripContext()
    for index in 0..<10 {
      let trip = Trip(name: "t\(index)")
      trip.startDate = Date(timeIntervalSince1970: Double(index) * 86_400)
      context.insert(trip)
    }
    try context.save()
    return context
  }

  /// The descriptor sorted by the engine, unsorted, and sorted by Foundation (a comparator).
  func descriptors(offset: Int?, limit: Int?) -> [FetchDescriptor<Trip>] {
    let sorts: [[SortDescriptor<Trip>]] = [
      [SortDescriptor(\.startDate)], [], [SortDescriptor(\.name, comparator: .lexical)],
    ]
    return sorts.map { sort in
      var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name != "" }, sortBy: sort)
      descriptor.fetchOffset = offset
      descriptor.fetchLimit = limit
      return descriptor
    }
  }

  @Test(
    "huge offsets and limits clip instead of overflowing",
    arguments: [
      (Int.max, 10, 0), (Int.max, Int.max, 0), (2, Int.max, 8), (Int.max - 1, 5, 0),
      (0, Int.max, 10), (9, Int.max - 3, 1),
    ])
  func hugeWindows(offset: Int, limit: Int, expected: Int) throws {
    let context = try seeded()
    for descriptor in descriptors(offset: offset, limit: limit) {
      #expect(try context.fetch(descriptor).count == expected)
      #expect(try context.fetchCount(descriptor) == expected)
      #expect(try context.fetchIdentifiers(descriptor).count == expected)
    }
    var unfiltered = FetchDescriptor<Trip>()
    unfiltered.fetchOffset = offset
    unfiltered.fetchLimit = limit
    #expect(try context.fetchCount(unfiltered) == expected)
    #expect(try context.fetch(unfiltered).count == expected)
  }

  @Test("a negative limit or offset is refused with a clear error")
  func negativeWindows() throws {
    let context = try seeded()
    for (offset, limit) in [(nil, -1), (-1, nil), (-5, 3)] as [(Int?, Int?)] {
      for descriptor in descriptors(offset: offset, limit: limit) {
        let error = #expect(throws: ModelError.self) { try context.fetch(descriptor) }
        #expect(error?.code == .invalidDescriptor)
        #expect(
          error?.message.contains("must be 0 or more") == true, "\(String(describing: error))")
        #expect(throws: ModelError.self) { try context.fetchCount(descriptor) }
        #expect(throws: ModelError.self) { try context.fetchIdentifiers(descriptor) }
      }
    }
  }
}
