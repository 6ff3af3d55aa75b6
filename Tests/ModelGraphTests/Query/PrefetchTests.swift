import Foundation
import ModelGraph
import Testing

/// Prefetching returns what navigating without it returns: the same objects, in the same
/// order, for every kind of relationship and with unsaved changes in the context.
@Suite("Query: prefetched relationships equal navigation")
struct PrefetchTests {
  /// The identifiers of each trip's stays, read by navigation.
  private func stays(of trips: [QTrip]) -> [[PersistentIdentifier]] {
    trips.map { $0.stays.map(\.persistentModelID) }
  }

  /// `descriptor` fetched without and then with prefetching of the stays: the same trips and,
  /// for each, the same stays in the same order, and the stays are the context's handles.
  private func expectSameStays(
    _ context: ModelContext, _ descriptor: FetchDescriptor<QTrip>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let plain = try context.fetch(descriptor)
    let expected = stays(of: plain)
    var prefetching = descriptor
    prefetching.relationshipKeyPathsForPrefetching = [\.stays]
    let trips = try context.fetch(prefetching)
    #expect(
      trips.map(\.persistentModelID) == plain.map(\.persistentModelID),
      sourceLocation: sourceLocation)
    #expect(stays(of: trips) == expected, sourceLocation: sourceLocation)
    for trip in trips {
      for stay in trip.stays {
        #expect(stay.trip === trip, sourceLocation: sourceLocation)
      }
    }
  }

  @Test("to-many, in order, with every class of the hierarchy (deep) and one class (shallow)")
  func toManyDeepAndShallow() throws {
    let fixture = try QueryFixture.make()
    let context = fixture.context
    try expectSameStays(context, FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    var shallow = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.name)])
    shallow.includesSubclasses = false
    try expectSameStays(context, shallow)
    let business = try context.fetch(FetchDescriptor<QBusiness>())
    var prefetching = FetchDescriptor<QBusiness>()
    prefetching.relationshipKeyPathsForPrefetching = [\.stays]
    let fetched = try context.fetch(prefetching)
    #expect(fetched.map(\.persistentModelID) == business.map(\.persistentModelID))
    #expect(stays(of: fetched) == stays(of: business))
    #expect(fetched.contains { $0 is QConference }, "the deepest class is fetched too")
  }

  @Test("a list reordered in the context keeps its new order when prefetched")
  func orderedToMany() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let trips = try context.fetch(FetchDescriptor<QTrip>()).filter { $0.stays.count >= 2 }
    try #require(!trips.isEmpty)
    for trip in trips { trip.stays = trip.stays.reversed() }
    try context.save()
    trips[0].stays = Array(trips[0].stays.dropFirst()) + [trips[0].stays[0]]
    try expectSameStays(context, FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.name)]))
  }

  @Test("to-one: each stay's trip, including stays without one")
  func toOne() throws {
    let fixture = try QueryFixture.make(count: 80)
    let context = fixture.context
    let orphan = try #require(fixture.stays.first)
    orphan.trip = nil
    try context.save()
    let descriptor = FetchDescriptor<QStay>(sortBy: [SortDescriptor(\.serial)])
    let plain = try context.fetch(descriptor).map { $0.trip?.persistentModelID }
    var prefetching = descriptor
    prefetching.relationshipKeyPathsForPrefetching = [\.trip]
    let stays = try context.fetch(prefetching)
    #expect(stays.map { $0.trip?.persistentModelID } == plain)
    #expect(plain.contains(nil))
    for stay in stays {
      if let trip = stay.trip { #expect(trip.stays.contains { $0 === stay }) }
    }
  }

  @Test("many-to-many from both sides")
  func manyToMany() throws {
    let context = try makeInMemoryContext(RLStudent.self)
    let courses = (0..<6).map { RLCourse(title: "Course \($0)", number: $0) }
    for index in 0..<20 {
      let student = RLStudent(name: "Student \(index)", number: index)
      context.insert(student)
      student.courses = courses.enumerated().filter { ($0.offset * 7 + index) % 3 == 0 }
        .map(\.element)
    }
    try context.save()
    var students = FetchDescriptor<RLStudent>(sortBy: [SortDescriptor(\.number)])
    let plainCourses = try context.fetch(students).map { $0.courses.map(\.persistentModelID) }
    students.relationshipKeyPathsForPrefetching = [\.courses]
    #expect(
      try context.fetch(students).map { $0.courses.map(\.persistentModelID) } == plainCourses)
    var byCourse = FetchDescriptor<RLCourse>(sortBy: [SortDescriptor(\.number)])
    let plainStudents = try context.fetch(byCourse).map { $0.students.map(\.persistentModelID) }
    byCourse.relationshipKeyPathsForPrefetching = [\.students]
    #expect(
      try context.fetch(byCourse).map { $0.students.map(\.persistentModelID) } == plainStudents)
    #expect(plainStudents.contains { $0.count > 1 })
  }

  @Test("unsaved inserts, moves and deletions of related objects are seen")
  func pendingChanges() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let trips = try context.fetch(FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    let withStays = trips.filter { !$0.stays.isEmpty }
    try #require(withStays.count >= 3)
    context.delete(withStays[0].stays[0])
    withStays[1].stays[0].trip = withStays[2]
    let added = QStay()
    added.serial = 10_000
    added.name = "added"
    added.rate = 1
    added.trip = withStays[2]
    context.insert(added)
    var random = SplitMix64(seed: 99)
    let inserted = QueryFixture.makeTrip(999, &random)
    context.insert(inserted)
    inserted.stays = [withStays[0].stays.last].compactMap { $0 }
    try expectSameStays(context, FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    var prefetching = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
    prefetching.relationshipKeyPathsForPrefetching = [\.stays]
    let fetched = try context.fetch(prefetching)
    let names = fetched.flatMap { $0.stays.map(\.name) }
    #expect(names.contains("added"))
    #expect(fetched.contains { $0 === inserted })
  }

  @Test("a related object deleted and saved is not prefetched")
  func deletedChildren() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let doomed = fixture.stays.prefix(10)
    let doomedIDs = Set(doomed.map(\.persistentModelID))
    for stay in doomed { context.delete(stay) }
    try context.save()
    try expectSameStays(context, FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    var prefetching = FetchDescriptor<QTrip>()
    prefetching.relationshipKeyPathsForPrefetching = [\.stays]
    let ids = try context.fetch(prefetching).flatMap { $0.stays.map(\.persistentModelID) }
    #expect(doomedIDs.isDisjoint(with: ids))
  }

  @Test("offset and limit: only the window's relationships, equal to navigation")
  func window() throws {
    let fixture = try QueryFixture.make()
    let context = fixture.context
    for (offset, limit) in [(0, 10), (17, 25), (230, 50), (0, 0)] {
      var descriptor = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
      descriptor.fetchOffset = offset
      descriptor.fetchLimit = limit
      try expectSameStays(context, descriptor)
      var unsorted = FetchDescriptor<QTrip>()
      unsorted.fetchOffset = offset
      unsorted.fetchLimit = limit
      try expectSameStays(context, unsorted)
    }
  }

  /// The stays of every trip of `context`, by trip identifier, read by navigation.
  private func staysByTrip(_ trips: [QTrip]) -> [PersistentIdentifier: [PersistentIdentifier]] {
    Dictionary(
      uniqueKeysWithValues: trips.filter { !$0.isDeleted }.map {
        ($0.persistentModelID, $0.stays.map(\.persistentModelID))
      })
  }

  /// What a fresh context on `container` reads for every trip.
  private func freshStays(_ container: ModelContainer) throws
    -> [PersistentIdentifier: [PersistentIdentifier]]
  {
    staysByTrip(try ModelContext(container).fetch(FetchDescriptor<QTrip>()))
  }

  @Test("navigation after each kind of change equals the tables, and a fresh context's answer")
  func navigationAfterChanges() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let container = context.container
    var prefetching = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
    prefetching.relationshipKeyPathsForPrefetching = [\.stays]
    var trips = try context.fetch(prefetching)
    #expect(staysByTrip(trips) == (try freshStays(container)))
    let withStays = trips.filter { $0.stays.count >= 2 }
    try #require(withStays.count >= 4)
    let (first, second, third, fourth) = (withStays[0], withStays[1], withStays[2], withStays[3])

    // A to-many list reassigned (reordered) in the context.
    let reversed = Array(first.stays.reversed())
    first.stays = reversed
    #expect(first.stays.map(\.persistentModelID) == reversed.map(\.persistentModelID))

    // A to-one written on a child: its old trip loses it, its new trip gains it at the end.
    trips = try context.fetch(prefetching)
    let moved = second.stays[0]
    let secondBefore = second.stays.map(\.persistentModelID)
    moved.trip = third
    #expect(second.stays.map(\.persistentModelID) == Array(secondBefore.dropFirst()))
    #expect(third.stays.last === moved)

    // A new child inserted with its trip set.
    trips = try context.fetch(prefetching)
    let added = QStay()
    added.serial = 10_000
    added.name = "added"
    added.rate = 1
    context.insert(added)
    added.trip = fourth
    #expect(fourth.stays.last === added)

    // A child deleted (not saved): the cascade source's list no longer holds it.
    trips = try context.fetch(prefetching)
    let doomed = fourth.stays[0]
    context.delete(doomed)
    #expect(!fourth.stays.contains { $0 === doomed })

    // Saved: every trip reads what a fresh context reads.
    try context.save()
    #expect(staysByTrip(trips) == (try freshStays(container)))

    // Changed, then rolled back: the saved lists again.
    trips = try context.fetch(prefetching)
    let savedStays = staysByTrip(trips)
    first.stays = []
    #expect(first.stays.isEmpty)
    context.rollback()
    #expect(staysByTrip(trips) == savedStays)
    #expect(staysByTrip(trips) == (try freshStays(container)))

    // Another context saves a move; the next fetch refreshes this one onto it.
    trips = try context.fetch(prefetching)
    let other = ModelContext(container)
    let otherTrips = try other.fetch(FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    let donor = try #require(otherTrips.first { $0.stays.count >= 2 })
    let receiver = try #require(otherTrips.last { $0 !== donor })
    donor.stays[0].trip = receiver
    try other.save()
    _ = try context.fetchCount(FetchDescriptor<QStay>())
    #expect(staysByTrip(trips) == (try freshStays(container)))

    // A trip deleted with its stays (cascade), saved.
    trips = try context.fetch(prefetching)
    context.delete(third)
    try context.save()
    #expect(staysByTrip(trips) == (try freshStays(container)))
  }

  @Test("owners of an earlier prefetch read their own lists after another prefetch of others")
  func ownersOfEarlierPrefetch() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let all = try context.fetch(FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)]))
    let expected = Dictionary(
      uniqueKeysWithValues: all.map { ($0.persistentModelID, $0.stays.map(\.persistentModelID)) })
    var early = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
    early.fetchLimit = 20
    early.relationshipKeyPathsForPrefetching = [\.stays]
    let first = try context.fetch(early)
    // The later prefetch numbers other owners from 0, as the first did.
    var late = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start, order: .reverse)])
    late.fetchLimit = 20
    late.relationshipKeyPathsForPrefetching = [\.stays]
    let second = try context.fetch(late)
    #expect(Set(first.map(\.persistentModelID)).isDisjoint(with: second.map(\.persistentModelID)))
    for trip in first + second {
      #expect(trip.stays.map(\.persistentModelID) == expected[trip.persistentModelID])
    }
  }

  @Test(
    "a to-one prefetch, then a to-many prefetch (named twice) of other owners: each reads its own")
  func prefetchesOfTwoClasses() throws {
    let fixture = try QueryFixture.make(count: 60)
    let context = fixture.context
    let descriptor = FetchDescriptor<QStay>(sortBy: [SortDescriptor(\.serial)])
    let plain = try context.fetch(descriptor).map {
      ($0.trip?.persistentModelID, $0.trip?.stays.map(\.serial) ?? [])
    }
    let fresh = ModelContext(context.container)
    var prefetching = descriptor
    prefetching.relationshipKeyPathsForPrefetching = [\.trip]
    let stays = try fresh.fetch(prefetching)
    var trips = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start)])
    trips.relationshipKeyPathsForPrefetching = [\.stays, \.stays]
    _ = try fresh.fetch(trips)
    #expect(stays.map { $0.trip?.persistentModelID } == plain.map(\.0))
    #expect(stays.map { $0.trip?.stays.map(\.serial) ?? [] } == plain.map(\.1))
  }
}
