import Foundation
import ModelGraph
import Testing

/// Composition of predicates at run time, prefetching, counts and identifiers.
@Suite("Query: composition, prefetch, counts and identifiers")
struct QueryFeatureTests {
  @Test("CompoundPredicate combines predicates with and, or and not")
  func compound() throws {
    let fixture = try QueryFixture.make()
    let context = fixture.context
    let three = 3
    let cheap = 300.0
    let beach = QKind.beach
    let parts: [Predicate<QTrip>] = [
      #Predicate { $0.nights > three }, #Predicate { $0.budget < cheap },
      #Predicate { $0.kind == beach }, #Predicate { $0.label.contains("a") },
    ]
    let all = try fixture.allTrips()
    let combinations: [(Predicate<QTrip>, (QTrip) throws -> Bool)] = [
      (
        CompoundPredicate.and(Array(parts.prefix(3))),
        { t in try parts.prefix(3).allSatisfy { try $0.evaluate(t) } }
      ),
      (
        CompoundPredicate.or(Array(parts.prefix(2))),
        { t in try parts.prefix(2).contains { try $0.evaluate(t) } }
      ),
      (CompoundPredicate.not(parts[0]), { t in try !parts[0].evaluate(t) }),
      (
        CompoundPredicate.and([parts[0], CompoundPredicate.or([parts[1], parts[2]])]),
        { t in try parts[0].evaluate(t) && (parts[1].evaluate(t) || parts[2].evaluate(t)) }
      ),
      (CompoundPredicate.and(parts), { t in try parts.allSatisfy { try $0.evaluate(t) } }),
      (CompoundPredicate.and([]), { _ in true }),
      (CompoundPredicate.or([]), { _ in false }),
    ]
    for (predicate, test) in combinations {
      let expected = try all.filter(test)
      let found = try context.fetch(FetchDescriptor(predicate: predicate))
      #expect(names(found).sorted() == names(expected).sorted())
      #expect(try all.filter { try predicate.evaluate($0) }.count == expected.count)
    }
    let plan = try context.explain(FetchDescriptor(predicate: CompoundPredicate.and(parts)))
    #expect(plan.contains("hash(kind)") || plan.contains("ordered(nights)"), "\(plan)")
    #expect(plan.contains("fallback"), "the computed-property part: \(plan)")
  }

  @Test("prefetching resolves relationships of every result")
  func prefetch() throws {
    let fixture = try QueryFixture.make()
    var descriptor = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
    descriptor.fetchLimit = 50
    descriptor.relationshipKeyPathsForPrefetching = [\.stays]
    let trips = try fixture.context.fetch(descriptor)
    let expected = try fixture.allTrips().sorted(using: descriptor.sortBy).prefix(50)
    #expect(names(trips) == names(Array(expected)))
    for trip in trips {
      #expect(trip.stays.allSatisfy { $0.trip === trip })
    }
    var stays = FetchDescriptor<QStay>()
    stays.relationshipKeyPathsForPrefetching = [\.trip]
    let all = try fixture.context.fetch(stays)
    #expect(all.allSatisfy { $0.trip != nil })
  }

  @Test("counts and identifiers match fetch, with conditions and windows")
  func counts() throws {
    let fixture = try QueryFixture.make()
    let context = fixture.context
    #expect(try context.fetchCount(FetchDescriptor<QTrip>()) == fixture.trips.count)
    let business = fixture.trips.filter { $0 is QBusiness }
    #expect(try context.fetchCount(FetchDescriptor<QBusiness>()) == business.count)
    var exact = FetchDescriptor<QBusiness>()
    exact.includesSubclasses = false
    #expect(try context.fetchCount(exact) == business.filter { !($0 is QConference) }.count)
    var window = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.budget)])
    window.fetchOffset = 10
    window.fetchLimit = 25
    #expect(try context.fetchCount(window) == 25)
    #expect(try context.fetchIdentifiers(window) == context.fetch(window).map(\.persistentModelID))
    let four = 4
    let descriptor = FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights == four })
    #expect(try context.fetchCount(descriptor) == fixture.trips.filter { $0.nights == 4 }.count)
  }

  @Test("an unsaved insert is found and an unsaved delete is not, by fetch and by count")
  func pendingObjects() throws {
    let fixture = try QueryFixture.make(count: 40)
    let context = fixture.context
    let trip = QPersonal()
    trip.name = "pending 1"
    trip.start = QueryFixture.epoch
    trip.budget = 1
    trip.nights = 9
    trip.small = 0
    trip.tags = []
    trip.kind = .beach
    trip.reason = .family
    context.insert(trip)
    let nine = 9
    let name = "pending 1"
    #expect(
      try context.fetch(FetchDescriptor<QTrip>(predicate: #Predicate { $0.name == name })).first
        === trip)
    let before = try context.fetchCount(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights == nine }))
    context.delete(trip)
    #expect(
      try context.fetchCount(FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights == nine }))
        == before - 1)
    #expect(
      try context.fetch(FetchDescriptor<QTrip>(predicate: #Predicate { $0.name == name })).isEmpty)
  }

  @Test("a predicate part that throws in Foundation fails the fetch with predicateFailed")
  func throwingFallback() throws {
    let fixture = try QueryFixture.make(count: 20)
    let descriptor = FetchDescriptor<QTrip>(predicate: #Predicate { $0.tags[5] == "x" })
    #expect(throws: ModelError.self) { try fixture.context.fetch(descriptor) }
  }
}
