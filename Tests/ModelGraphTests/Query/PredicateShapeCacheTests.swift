import Foundation
import Testing

@testable import ModelGraph

/// A fetch whose `#Predicate` has the shape of one fetched before takes its translation from
/// the context's cache with its own captured values: it finds the rows of those values, and
/// two different shapes never share a translation.
@Suite("Query: the predicate shape cache")
struct PredicateShapeCacheTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make() }

  /// The names `predicate` fetches, and those that filtering every trip with it finds.
  func compare(_ predicate: Predicate<QTrip>, _ label: String) throws {
    let all = try context.fetch(FetchDescriptor<QTrip>())
    let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.name))
    let fetched = try context.fetch(FetchDescriptor(predicate: predicate))
    #expect(Set(fetched.map(\.name)) == expected, "\(label)")
    #expect(fetched.count == expected.count, "\(label)")
  }

  @Test("the same shape with other values finds the rows of those values")
  func sameShapeOtherValues() throws {
    var random = SplitMix64(seed: 11)
    let start = context.predicateShapes.hits
    for round in 0..<30 {
      let lo =
        QueryFixture.epoch + Double(Int.random(in: -5...120, using: &random)) * QueryFixture.day
      let hi = lo + Double(Int.random(in: 0...30, using: &random)) * QueryFixture.day
      let nights = Int.random(in: -1...10, using: &random)
      let code: String? =
        Bool.random(using: &random) ? nil : "C\(Int.random(in: 0..<20, using: &random))"
      let rating: Double? =
        Bool.random(using: &random) ? nil : Double(Int.random(in: 0...10, using: &random)) / 2
      let prefix = ["a", "b", "c", "", "ca"].randomElement(using: &random)!
      let tag = ["red", "blue", "green", "none"].randomElement(using: &random)!
      let kind = QKind.allCases.randomElement(using: &random)!
      try compare(#Predicate { $0.start >= lo && $0.start < hi }, "range \(round)")
      try compare(#Predicate { $0.nights == nights }, "nights == \(nights)")
      try compare(#Predicate { $0.nights != nights || $0.start < lo }, "or \(round)")
      try compare(#Predicate { !($0.nights <= nights) }, "not <= \(nights)")
      try compare(#Predicate { $0.code == code }, "code == \(String(describing: code))")
      try compare(#Predicate { $0.rating == rating }, "rating == \(String(describing: rating))")
      let threshold = Double(nights) / 2
      try compare(#Predicate { ($0.rating ?? -1) > threshold }, "coalesce \(threshold)")
      try compare(#Predicate { $0.name.starts(with: prefix) }, "prefix \(prefix)")
      try compare(#Predicate { $0.tags.contains(tag) }, "tag \(tag)")
      try compare(#Predicate { $0.kind == kind }, "kind \(kind)")
      try compare(
        #Predicate { $0.code.flatMap { $0.starts(with: prefix) } ?? false }, "flatMap \(prefix)")
    }
    // Every fetch after each shape's first takes its translation from the cache.
    #expect(context.predicateShapes.hits - start >= 29 * 10)
  }

  @Test("predicates that differ in an operator, a key path, an operand order or a connective")
  func differentShapesNeverCollide() throws {
    let nights = 4
    let budget = 400.0
    let predicates: [(Predicate<QTrip>, String)] = [
      (#Predicate { $0.nights < nights }, "<"),
      (#Predicate { $0.nights <= nights }, "<="),
      (#Predicate { $0.nights > nights }, ">"),
      (#Predicate { $0.nights >= nights }, ">="),
      (#Predicate { $0.nights == nights }, "=="),
      (#Predicate { $0.nights != nights }, "!="),
      (#Predicate { nights < $0.nights }, "reversed <"),
      (#Predicate { $0.budget < budget }, "budget <"),
      (#Predicate { $0.budget < budget && $0.nights < nights }, "&&"),
      (#Predicate { $0.budget < budget || $0.nights < nights }, "||"),
      (#Predicate { $0.nights < nights && $0.budget < budget }, "&& swapped"),
      (#Predicate { $0.rating == nil }, "== nil"),
      (#Predicate { $0.rating != nil }, "!= nil"),
    ]
    // Twice over: the second pass reads every shape from the cache.
    for pass in 0..<2 {
      for (predicate, label) in predicates { try compare(predicate, "\(label), pass \(pass)") }
    }
    #expect(context.predicateShapes.count == predicates.count)
  }

  @Test("a captured identifier converts per fetch: a new object has no stays")
  func capturedIdentifiers() throws {
    let allStays = try context.fetch(FetchDescriptor<QStay>())
    let trips = try context.fetch(FetchDescriptor<QTrip>())
    var random = SplitMix64(seed: 5)
    func stays(of id: PersistentIdentifier) throws -> Set<String> {
      let descriptor = FetchDescriptor<QStay>(
        predicate: #Predicate { $0.trip?.persistentModelID == id })
      return Set(try context.fetch(descriptor).map(\.name))
    }
    for _ in 0..<20 {
      let trip = trips.randomElement(using: &random)!
      let expected = Set(allStays.filter { $0.trip === trip }.map(\.name))
      #expect(try stays(of: trip.persistentModelID) == expected)
    }
    let unsaved = QTrip()
    context.insert(unsaved)
    #expect(try stays(of: unsaved.persistentModelID).isEmpty)
    context.rollback()
    #expect(context.predicateShapes.hits >= 20)
  }

  @Test("a cached translation sees the context's unsaved inserts, changes and deletes")
  func pendingChanges() throws {
    let lo = QueryFixture.epoch + 200 * QueryFixture.day
    let hi = lo + QueryFixture.day
    try compare(#Predicate { $0.start >= lo && $0.start < hi }, "before")
    var random = SplitMix64(seed: 77)
    let trip = QueryFixture.makeTrip(90_000, &random)
    trip.start = lo
    context.insert(trip)
    let hits = context.predicateShapes.hits
    try compare(#Predicate { $0.start >= lo && $0.start < hi }, "with an insert")
    let moved = try context.fetch(FetchDescriptor<QTrip>()).first { $0 !== trip }!
    moved.start = lo + 60
    try compare(#Predicate { $0.start >= lo && $0.start < hi }, "with an update")
    context.delete(trip)
    try compare(#Predicate { $0.start >= lo && $0.start < hi }, "with a delete")
    #expect(context.predicateShapes.hits == hits + 3)
    context.rollback()
    try compare(#Predicate { $0.start >= lo && $0.start < hi }, "after rollback")
  }

  @Test("a new class in the schema and a new context keep answers right")
  func schemaChange() throws {
    let lo = QueryFixture.epoch + 10 * QueryFixture.day
    try compare(#Predicate { $0.start >= lo }, "before")
    _ = try context.fetch(FetchDescriptor<QCacheLate>())
    try compare(#Predicate { $0.start >= lo }, "after a schema change")
    let plan = try context.explain(FetchDescriptor<QTrip>(predicate: #Predicate { $0.start >= lo }))
    #expect(plan.contains("ordered(start)"), "\(plan)")
  }

  @Test("a predicate with a type test or an untranslatable part is translated every time")
  func refusedShapes() throws {
    let lo = QueryFixture.epoch + 10 * QueryFixture.day
    try compare(#Predicate { $0 is QBusiness && $0.start >= lo }, "type test")
    try compare(#Predicate { $0 is QBusiness && $0.start >= lo }, "type test again")
    try compare(#Predicate { $0.label == "x" || $0.start >= lo }, "computed property")
    try compare(#Predicate { $0.label == "x" || $0.start >= lo }, "computed property again")
    #expect(context.predicateShapes.hits == 0)
  }
}
