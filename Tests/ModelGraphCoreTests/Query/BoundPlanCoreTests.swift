import Foundation
import Testing

@testable import ModelGraphCore

/// A bound plan runs a request of a cached shape with its own values, and steps aside (the
/// planner then plans or binds anew) when the session reads other indexes, tables or versions.
@Suite("Bound plans: values, index declarations and versions")
struct BoundPlanCoreTests {
  static let template = QueryShapeIdentity.newTemplate()
  static let days: [[IndexDefinition]] = [[IndexDefinition(.ordered, on: "days")], [], []]
  static let none: [[IndexDefinition]] = [[], [], []]

  func session() throws -> Session { try Fixture.sessionWithSavedTrips() }

  /// `days >= lo && days < hi` on trips, sorted by days, with its slots named.
  func request(_ lo: Int64, _ hi: Int64) -> (QueryRequest, [QueryExpression]) {
    let values: [QueryExpression] = [.constant(.int(lo)), .constant(.int(hi))]
    let slotted = QueryExpression.and([
      .comparison(.attribute("days"), .greaterOrEqual, .slot(0)),
      .comparison(.attribute("days"), .less, .slot(1)),
    ])
    var request = QueryRequest(
      entity: Fixture.trip, includesSubclasses: false, predicate: slotted.fillingSlots(values),
      sort: [QuerySortKey(.attribute("days"))], limit: 100)
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
    _ session: Session, _ request: QueryRequest, _ values: [QueryExpression],
    _ indexes: [[IndexDefinition]], declarations: Int? = nil
  ) -> QueryPlan? {
    var request = request
    request.predicate = nil
    return QueryPlanner.boundPlan(
      request, values: values, session: session, includePendingChanges: true,
      indexes: { indexes[$0.index] }, declarations: declarations)?.plan
  }

  /// The days of the rows a plan finds.
  func days(_ session: Session, _ plan: QueryPlan) throws -> [Int64] {
    try plan.keys().map { session.get(Int64.self, slot: Fixture.days, of: $0) }
  }

  @Test("other values, an empty range and an inverted one, through the bound plan")
  func otherValues() throws {
    let session = try session()
    let (first, firstValues) = request(3, 6)
    #expect(bound(session, first, firstValues, Self.days) == nil)
    #expect(try days(session, planned(session, first, Self.days)) == [3, 3, 3, 4, 4, 4, 5, 5, 5])
    for (lo, hi) in [(0, 2), (7, 7), (9, 4), (18, 40), (-5, 1)] as [(Int64, Int64)] {
      let (next, values) = request(lo, hi)
      let plan = try #require(bound(session, next, values, Self.days))
      #expect(plan.isFromCache)
      let expected = (0..<60).map { Int64($0 % 20) }.filter { $0 >= lo && $0 < hi }.sorted()
      #expect(try days(session, plan) == expected, "\(lo)..<\(hi)")
    }
  }

  @Test("with a declarations number, runs check the indexes again only when it changes")
  func declarationsNumber() throws {
    let session = try session()
    let (first, values) = request(3, 6)
    _ = try planned(session, first, Self.days)
    #expect(bound(session, first, values, Self.days, declarations: 1) != nil)
    let checked = session.planCache.tableChecks
    for (lo, hi) in [(0, 2), (4, 9)] as [(Int64, Int64)] {
      let (next, values) = request(lo, hi)
      let plan = try #require(bound(session, next, values, Self.days, declarations: 1))
      let expected = (0..<60).map { Int64($0 % 20) }.filter { $0 >= lo && $0 < hi }.sorted()
      #expect(try days(session, plan) == expected, "\(lo)..<\(hi)")
    }
    #expect(session.planCache.tableChecks == checked, "the same number: no check")
    #expect(bound(session, first, values, Self.none, declarations: 2) == nil)
    #expect(session.planCache.tableChecks == checked + 1)
    #expect(bound(session, first, values, Self.days) != nil, "no number: checked every run")
    #expect(session.planCache.tableChecks == checked + 2)
  }

  @Test("another index declaration steps the bound plan aside until the planner plans anew")
  func indexDeclarationsChange() throws {
    let session = try session()
    let (first, values) = request(3, 6)
    _ = try planned(session, first, Self.days)
    #expect(bound(session, first, values, Self.days) != nil)
    #expect(bound(session, first, values, Self.none) == nil)
    let scanned = try planned(session, first, Self.none)
    #expect(!scanned.isFromCache)
    #expect(try days(session, scanned) == [3, 3, 3, 4, 4, 4, 5, 5, 5])
    let again = try #require(bound(session, first, values, Self.none))
    #expect(try days(session, again) == [3, 3, 3, 4, 4, 4, 5, 5, 5])
  }

  @Test("unsaved changes and a save: the planner binds, then a new bound plan sees the save")
  func versions() throws {
    let session = try session()
    let (first, values) = request(3, 6)
    _ = try planned(session, first, Self.days)
    let added = session.insert(entity: Fixture.trip, name: "new", days: 4)
    #expect(bound(session, first, values, Self.days) == nil)
    #expect(try planned(session, first, Self.days).keys().contains(added))
    try session.save()
    #expect(bound(session, first, values, Self.days) == nil)
    #expect(try planned(session, first, Self.days).keys().contains(added))
    // The first plan at the new version binds nothing (a fetch after every save would never
    // reuse it); the second makes the bound plan.
    #expect(bound(session, first, values, Self.days) == nil)
    #expect(try planned(session, first, Self.days).keys().contains(added))
    let plan = try #require(bound(session, first, values, Self.days))
    #expect(try plan.keys().contains(added))
    #expect(try plan.keys().count == 10)
  }
}
