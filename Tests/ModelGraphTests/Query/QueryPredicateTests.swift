import Foundation
import ModelGraph
import Testing

/// Every predicate feature compared with Foundation's `Predicate.evaluate` on the same objects.
@Suite("Query: predicates against Predicate.evaluate")
struct QueryPredicateTests {
  @Test("the engine selects exactly what Predicate.evaluate accepts", arguments: PredicateCases.all)
  func matchesEvaluate(_ test: PredicateCase) throws {
    let fixture = try QueryFixture.make()
    try expectSameMatches(fixture, test)
  }

  @Test("untranslatable parts fall back to Predicate.evaluate", arguments: PredicateCases.fallbacks)
  func fallsBack(_ test: PredicateCase) throws {
    let fixture = try QueryFixture.make()
    try expectSameMatches(fixture, test)
  }

  @Test(
    "with unsaved inserts, changes and deletes",
    arguments: PredicateCases.all + PredicateCases.fallbacks)
  func withPendingChanges(_ test: PredicateCase) throws {
    let fixture = try QueryFixture.make(count: 160, seed: 11)
    var random = SplitMix64(seed: 99)
    for index in 0..<40 {
      let trip = QueryFixture.makeTrip(1_000 + index, &random)
      fixture.context.insert(trip)
    }
    for trip in fixture.trips.prefix(30) { trip.nights = (trip.nights + 3) % 10 }
    for trip in fixture.trips.dropFirst(30).prefix(20) { fixture.context.delete(trip) }
    try expectSameMatches(fixture, test)
  }

  @Test("on stays: optional chaining through a to-one relationship")
  func throughToOne() throws {
    let fixture = try QueryFixture.make()
    let name = fixture.trips[5].name
    let nights = 4
    let beach = QKind.beach
    let predicates: [Predicate<QStay>] = [
      #Predicate { $0.trip?.name == name },
      #Predicate { ($0.trip?.nights ?? 0) > nights },
      #Predicate { $0.trip?.kind == beach },
      #Predicate { $0.trip == nil },
      #Predicate { $0.trip.flatMap { $0 is QBusiness } ?? false },
      #Predicate { ($0.trip as? QPersonal) != nil },
      #Predicate { $0.trip?.stays.count == 3 },
    ]
    let all = try fixture.context.fetch(FetchDescriptor<QStay>())
    for predicate in predicates {
      let expected = try all.filter { try predicate.evaluate($0) }.map(\.name).sorted()
      let found = try fixture.context.fetch(FetchDescriptor(predicate: predicate)).map(\.name)
      #expect(found.sorted() == expected)
      let explanation = try fixture.context.explain(FetchDescriptor(predicate: predicate))
      #expect(!explanation.contains("fallback"), "\(explanation)")
    }
  }

  @Test("persistentModelID compares identities, through relationships too")
  func identity() throws {
    let fixture = try QueryFixture.make()
    let trip = fixture.trips[7]
    let id = trip.persistentModelID
    let found = try fixture.context.fetch(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.persistentModelID == id }))
    #expect(found.map(\.name) == [trip.name])
    let stays = try fixture.context.fetch(
      FetchDescriptor<QStay>(predicate: #Predicate { $0.trip?.persistentModelID == id }))
    #expect(Set(stays.map(\.name)) == Set(trip.stays.map(\.name)))
    let descriptor = FetchDescriptor<QStay>(
      predicate: #Predicate { $0.trip?.persistentModelID == id })
    #expect(try !fixture.context.explain(descriptor).contains("fallback"))
    let gone = fixture.trips[8].persistentModelID
    fixture.context.delete(fixture.trips[8])
    #expect(
      try fixture.context.fetch(
        FetchDescriptor<QTrip>(predicate: #Predicate { $0.persistentModelID == gone })
      ).isEmpty)
  }

  private func expectSameMatches(_ fixture: QueryFixture, _ test: PredicateCase) throws {
    let context = fixture.context
    let all = try fixture.allTrips()
    let expected = try all.filter { try test.predicate.evaluate($0) }
    for includesSubclasses in [true, false] {
      var descriptor = FetchDescriptor(predicate: test.predicate)
      descriptor.includesSubclasses = includesSubclasses
      let found = try context.fetch(descriptor)
      let wanted = expected.filter { includesSubclasses || type(of: $0) == QTrip.self }
      #expect(names(found).sorted() == names(wanted).sorted(), "\(test.name)")
      #expect(try context.fetchCount(descriptor) == wanted.count)
      #expect(try context.fetchIdentifiers(descriptor) == found.map(\.persistentModelID))
    }
    let explanation = try context.explain(FetchDescriptor(predicate: test.predicate))
    #expect(explanation.contains("fallback") != test.isTranslated, "\(explanation)")
  }
}
