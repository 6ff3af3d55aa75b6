import Foundation
import Testing

@testable import ModelGraphCore

/// A bound plan that does not sort outlives the saves between its runs: each run on another
/// version finds that version's index views, so a fetch after every save (a server's small
/// transactions) runs it without the planner, and still sees every save.
@Suite("Bound plans: kept across saves")
struct BoundPlanRebaseTests {
  static let template = QueryShapeIdentity.newTemplate()
  static let hash: [[IndexDefinition]] = [[IndexDefinition(.hash, on: "days")], [], []]
  static let none: [[IndexDefinition]] = [[], [], []]

  func session() throws -> Session { try Fixture.sessionWithSavedTrips() }

  /// `days == value` on trips, unsorted, with its slot named.
  func request(_ value: Int64) -> (QueryRequest, [QueryExpression]) {
    let values: [QueryExpression] = [.constant(.int(value))]
    let slotted = QueryExpression.comparison(.attribute("days"), .equal, .slot(0))
    var request = QueryRequest(
      entity: Fixture.trip, includesSubclasses: false, predicate: slotted.fillingSlots(values))
    request.shapeIdentity = QueryShapeIdentity(template: Self.template, values: values)
    request.slotted = slotted
    return (request, values)
  }

  func planned(_ session: Session, _ request: QueryRequest, _ indexes: [[IndexDefinition]])
    throws -> QueryPlan
  {
    let source = QuerySource(session: session, includePendingChanges: true) {
      indexes[$0.index]
    }
    return try QueryPlanner(source: source).plan(request)
  }

  func bound(
    _ session: Session, _ value: Int64, _ indexes: [[IndexDefinition]] = Self.hash
  ) -> QueryPlan? {
    var (request, values) = request(value)
    request.predicate = nil
    return QueryPlanner.boundPlan(
      request, values: values, session: session, includePendingChanges: true
    ) { indexes[$0.index] }?.plan
  }

  /// The names of the rows a plan finds, sorted.
  func names(_ session: Session, _ plan: QueryPlan) throws -> [String] {
    try plan.keys().map { session.get(String.self, slot: Fixture.name, of: $0) }.sorted()
  }

  @Test("a save between two runs: the bound plan runs on the new version and sees it")
  func saveBetweenRuns() throws {
    let session = try session()
    _ = try planned(session, request(4).0, Self.hash)
    #expect(try names(session, #require(bound(session, 4))) == ["t24", "t4", "t44"])
    let added = session.insert(entity: Fixture.trip, name: "added", days: 4)
    // With unsaved changes the bound plan steps aside; the planner sees them.
    #expect(bound(session, 4) == nil)
    #expect(try planned(session, request(4).0, Self.hash).keys().contains(added))
    try session.save()
    let hits = session.planCache.boundHits
    let after = try #require(bound(session, 4))
    #expect(try names(session, after) == ["added", "t24", "t4", "t44"])
    #expect(session.planCache.boundHits == hits + 1)
    session.delete(added)
    try session.save()
    #expect(try names(session, #require(bound(session, 4))) == ["t24", "t4", "t44"])
  }

  @Test("one shape, other values, a save before each run: the rows of each run's value")
  func otherValuesAcrossSaves() throws {
    let session = try session()
    _ = try planned(session, request(0).0, Self.hash)
    var previous: ObjectKey?
    for round in 0..<12 {
      let value = Int64(100 + round)
      let added = session.insert(entity: Fixture.trip, name: "r\(round)", days: value)
      if let previous { session.delete(previous) }
      try session.save()
      let hits = session.planCache.boundHits
      let plan = try #require(bound(session, value), "round \(round)")
      #expect(try plan.keys() == [added], "round \(round)")
      #expect(try #require(bound(session, value - 1)).keys().isEmpty, "round \(round)")
      #expect(try names(session, #require(bound(session, Int64(round % 20)))).count == 3)
      #expect(session.planCache.boundHits == hits + 3)
      previous = added
    }
  }

  /// `days == value && name != "skip"` on trips, unsorted, with the days' slot named: the
  /// hash index answers the first conjunct, a row test compiled once the second.
  func testedRequest(_ value: Int64) -> (QueryRequest, [QueryExpression]) {
    let values: [QueryExpression] = [.constant(.int(value))]
    let slotted = QueryExpression.and([
      .comparison(.attribute("days"), .equal, .slot(0)),
      .comparison(.attribute("name"), .notEqual, .constant(.string("skip"))),
    ])
    var request = QueryRequest(
      entity: Fixture.trip, includesSubclasses: false, predicate: slotted.fillingSlots(values))
    request.shapeIdentity = QueryShapeIdentity(template: Self.testedTemplate, values: values)
    request.slotted = slotted
    return (request, values)
  }

  static let testedTemplate = QueryShapeIdentity.newTemplate()

  @Test("a row test kept across saves reads what each save wrote")
  func rowTestAcrossSaves() throws {
    let session = try session()
    func run() throws -> [String]? {
      var (request, values) = testedRequest(4)
      request.predicate = nil
      guard
        let plan = QueryPlanner.boundPlan(
          request, values: values, session: session, includePendingChanges: true,
          indexes: { Self.hash[$0.index] })?.plan
      else { return nil }
      return try names(session, plan)
    }
    _ = try planned(session, testedRequest(4).0, Self.hash)
    #expect(try run() == ["t24", "t4", "t44"])
    let trips = try planned(session, request(4).0, Self.hash).keys()
    let original = session.get(String.self, slot: Fixture.name, of: trips[0])
    // An update of the tested column, an insert, a delete: each saved alone.
    session.set("skip", slot: Fixture.name, of: trips[0])
    try session.save()
    #expect(try run()?.count == 2)
    let added = session.insert(entity: Fixture.trip, name: "added", days: 4)
    try session.save()
    #expect(try run()?.contains("added") == true)
    #expect(try run()?.count == 3)
    session.set("back", slot: Fixture.name, of: trips[0])
    session.delete(added)
    try session.save()
    let expected = ["t24", "t4", "t44"].map { $0 == original ? "back" : $0 }.sorted()
    #expect(try run() == expected)
  }

  @Test("another session's save, seen after a refresh, is seen by the bound plan")
  func otherSessionSaves() throws {
    let session = try session()
    _ = try planned(session, request(7).0, Self.hash)
    #expect(try names(session, #require(bound(session, 7))).count == 3)
    let other = Session(store: session.store)
    _ = other.insert(entity: Fixture.trip, name: "other", days: 7)
    try other.save()
    session.refreshIfClean(to: nil)
    #expect(try names(session, #require(bound(session, 7))) == ["other", "t27", "t47", "t7"])
  }

  @Test("other index declarations after a save step the kept plan aside")
  func indexDeclarationsChange() throws {
    let session = try session()
    _ = try planned(session, request(4).0, Self.hash)
    _ = session.insert(entity: Fixture.trip, name: "added", days: 4)
    try session.save()
    #expect(bound(session, 4, Self.none) == nil)
    let scanned = try planned(session, request(4).0, Self.none)
    #expect(!scanned.isFromCache)
    #expect(try names(session, scanned) == ["added", "t24", "t4", "t44"])
  }

  @Test("a move to another version releases the views and tables of the tables it replaced")
  func releasesOldVersion() throws {
    let session = try session()
    _ = try planned(session, request(4).0, Self.hash)
    _ = try #require(bound(session, 4))
    weak let old = session.committedTable(Fixture.trip)
    _ = session.insert(entity: Fixture.trip, name: "added", days: 4)
    try session.save()
    let cached = try #require(
      session.planCache.bound(
        for: QueryPlanCache.Key(request(4).0, onlyCommitted: false)))
    #expect(cached.tables.allSatisfy { $0.committed == nil || $0.entity.index != Fixture.trip })
    // Nothing else holds the version the plan ran on: it is freed.
    #expect(old == nil)
    #expect(try names(session, #require(bound(session, 4))).count == 4)
  }
}
