import Foundation
import Testing

@testable import ModelGraphCore

/// A session remembers the indexes its queries found, and never answers from an index of a
/// table version it no longer reads.
@Suite("Index memo: a session's indexes across store versions")
struct IndexMemoTests {
  static let indexes: [[IndexDefinition]] = [
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
  ]

  func keys(_ session: Session, _ request: QueryRequest) throws -> [ObjectKey] {
    let source = QuerySource(session: session, includePendingChanges: true) {
      Self.indexes[$0.index]
    }
    return try QueryPlanner(source: source).plan(request).keys()
  }

  @Test("a query after another session's save sees its objects, through the index")
  func refreshedIndex() throws {
    let store = try Fixture.makeStore()
    let reader = Session(store: store)
    let writer = Session(store: store)
    for day in 0..<20 {
      _ = writer.insert(entity: Fixture.trip, name: "t\(day)", days: Int64(day))
    }
    try writer.save()
    reader.refreshIfClean()
    let byDay = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(7))))
    let byNote = QueryRequest(
      entity: Fixture.trip,
      predicate: .comparison(.attribute("note"), .equal, .constant(.string("late"))))
    #expect(try keys(reader, byDay).count == 1)
    #expect(try keys(reader, byNote).isEmpty)

    let added = writer.insert(entity: Fixture.business, name: "b7", days: 7)
    writer.set(String?("late"), slot: Fixture.note, of: added)
    let first = try keys(reader, byDay)[0]
    writer.delete(first)
    try writer.save()

    // The reader's memo holds the indexes of the version it read; moving on forgets them.
    reader.refreshIfClean()
    #expect(try keys(reader, byDay) == [added])
    #expect(try keys(reader, byNote) == [added])
  }

  @Test("pending changes are laid over the remembered index of the committed version")
  func pendingChanges() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let kept = session.insert(entity: Fixture.trip, name: "a", days: 3)
    let moved = session.insert(entity: Fixture.trip, name: "b", days: 3)
    try session.save()
    let request = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(3))))
    #expect(Set(try keys(session, request)) == [kept, moved])
    session.set(Int64(4), slot: Fixture.days, of: moved)
    #expect(try keys(session, request) == [kept])
    session.rollback()
    #expect(Set(try keys(session, request)) == [kept, moved])
  }
}

/// The session's plan cache at the engine's level: index declarations and its bound.
@Suite("Plan cache: index declarations and capacity")
struct QueryPlanCacheCoreTests {
  func plan(
    _ session: Session, _ request: QueryRequest, indexes: [[IndexDefinition]]
  ) throws -> QueryPlan {
    let source = QuerySource(session: session, includePendingChanges: true) {
      indexes[$0.index]
    }
    return try QueryPlanner(source: source).plan(request)
  }

  func session() throws -> Session {
    let session = Session(store: try Fixture.makeStore())
    for index in 0..<60 {
      _ = session.insert(entity: Fixture.trip, name: "t\(index)", days: Int64(index % 20))
    }
    try session.save()
    return session
  }

  @Test("a plan made without an index is not reused once the index is declared")
  func indexDeclared() throws {
    let session = try session()
    let request = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(3))))
    let none: [[IndexDefinition]] = [[], [], []]
    let days: [[IndexDefinition]] = [[IndexDefinition(.ordered, on: "days")], [], []]
    let scanned = try plan(session, request, indexes: none)
    #expect(!scanned.isFromCache && scanned.explanation.contains("scan"))
    #expect(try plan(session, request, indexes: none).isFromCache)
    let indexed = try plan(session, request, indexes: days)
    #expect(!indexed.isFromCache, "\(indexed.explanation)")
    #expect(indexed.explanation.contains("ordered(days) =="), "\(indexed.explanation)")
    #expect(try indexed.keys() == scanned.keys())
    #expect(session.planCache.hits == 1)
  }

  @Test("a save drops the views plans hold; the next use finds the new version's and keeps them")
  func viewsDroppedWhenTheBaseMoves() throws {
    let session = try session()
    let indexes: [[IndexDefinition]] = [[IndexDefinition(.ordered, on: "days")], [], []]
    func request(_ days: Int64) -> QueryRequest {
      QueryRequest(
        entity: Fixture.trip,
        predicate: .comparison(.attribute("days"), .equal, .constant(.int(days))))
    }
    #expect(try plan(session, request(3), indexes: indexes).keys().count == 3)
    #expect(session.planCache.plansHoldingViews == 1)
    let added = session.insert(entity: Fixture.trip, name: "new", days: 4)
    try session.save()
    #expect(session.planCache.plansHoldingViews == 0)
    let reused = try plan(session, request(4), indexes: indexes)
    #expect(reused.isFromCache)
    #expect(try reused.keys().contains(added))
    #expect(try reused.keys().count == 4)
    #expect(session.planCache.plansHoldingViews == 1)
    #expect(try plan(session, request(4), indexes: indexes).keys().count == 4)
  }

  @Test("requests named by one shape identity share a plan; their values still count")
  func shapeIdentity() throws {
    let session = try session()
    let template = QueryShapeIdentity.newTemplate()
    func request(_ days: Int64) -> QueryRequest {
      let value = QueryExpression.constant(.int(days))
      var request = QueryRequest(
        entity: Fixture.trip, predicate: .comparison(.attribute("days"), .less, value))
      request.shapeIdentity = QueryShapeIdentity(template: template, values: [value])
      return request
    }
    #expect(request(2).shapeIdentity != nil)
    let first = try plan(session, request(2), indexes: [[], [], []])
    #expect(!first.isFromCache)
    #expect(try first.keys().count == 6)
    let second = try plan(session, request(5), indexes: [[], [], []])
    #expect(second.isFromCache)
    #expect(try second.keys().count == 15)
    #expect(
      QueryShapeIdentity(template: template, values: [.constant(.null)])
        != QueryShapeIdentity(template: template, values: [.constant(.int(1))]))
    #expect(
      QueryShapeIdentity(template: template, values: [.constant(.bool(true))])
        != QueryShapeIdentity(template: template, values: [.constant(.bool(false))]))
  }

  @Test("at most the capacity of shapes are kept")
  func capacity() throws {
    let session = try session()
    for limit in 0..<(QueryPlanCache.capacity + 10) {
      let request = QueryRequest(
        entity: Fixture.trip, predicate: .comparison(.attribute("days"), .less, .constant(.int(9))),
        sort: [QuerySortKey(.attribute("name"))], limit: limit)
      _ = try plan(session, request, indexes: [[], [], []])
    }
    #expect(session.planCache.count == QueryPlanCache.capacity)
    #expect(session.planCache.misses == QueryPlanCache.capacity + 10)
  }
}
