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

  /// A store holding one saved Trip and one saved BusinessTrip, and the session that saved them.
  static func savedTripAndBusiness() throws -> (Store, Session) {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    _ = session.insert(entity: Fixture.trip, name: "t", days: 1)
    _ = session.insert(entity: Fixture.business, name: "b", days: 1)
    try session.save()
    return (store, session)
  }

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

extension IndexMemoTests {
  @Test("moving to another version keeps the memo's entries of the tables it still holds")
  func memoKeepsUnwrittenTables() throws {
    let (store, session) = try Self.savedTripAndBusiness()
    let memo = IndexMemo(store: store)
    let definition = IndexDefinition(.hash, on: "name")
    final class Built {}
    var finds = 0
    func built(_ table: Table) -> Built {
      let found: Built = memo.built(for: table, definition: definition) {
        finds += 1
        return Built()
      }
      return found
    }
    let before = store.version.tables
    let tripIndex = built(before[Fixture.trip])
    _ = built(before[Fixture.business])
    #expect(finds == 2)
    _ = session.insert(entity: Fixture.business, name: "c", days: 2)
    try session.save()
    let after = store.version.tables
    #expect(after[Fixture.trip] === before[Fixture.trip])
    #expect(after[Fixture.business] !== before[Fixture.business])
    memo.keepOnly(after)
    #expect(built(after[Fixture.trip]) === tripIndex)
    #expect(finds == 2)
    _ = built(after[Fixture.business])
    #expect(finds == 3)
    // The entry of the old BusinessTrip table was dropped, not just passed over: moving back
    // to the old tables finds its index again.
    memo.keepOnly(before)
    _ = built(before[Fixture.business])
    #expect(finds == 4)
    #expect(built(before[Fixture.trip]) === tripIndex)
  }
}

extension IndexMemoTests {
  @Test("moving to another version lets go of the indexes of the tables it replaced")
  func memoReleasesReplacedTables() throws {
    let (store, session) = try Self.savedTripAndBusiness()
    let memo = IndexMemo(store: store)
    let definition = IndexDefinition(.hash, on: "name")
    final class Built {}
    weak var replaced: Built?
    weak var kept: Built?
    do {
      let tables = store.version.tables
      replaced = memo.built(for: tables[Fixture.business], definition: definition) { Built() }
      kept = memo.built(for: tables[Fixture.trip], definition: definition) { Built() }
    }
    _ = session.insert(entity: Fixture.business, name: "c", days: 2)
    try session.save()
    // Twice: a forgotten entry stays forgotten, and the kept one stays.
    for _ in 0..<2 {
      memo.keepOnly(store.version.tables)
      #expect(replaced == nil, "the index of the replaced BusinessTrip table is released")
      #expect(kept != nil, "the Trip table is the same version: its index stays")
    }
    // The entity's entry is filled again for the new table.
    var finds = 0
    for _ in 0..<2 {
      _ = memo.built(for: store.version.tables[Fixture.business], definition: definition) {
        finds += 1
        return Built()
      }
    }
    #expect(finds == 1)
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

  func session() throws -> Session { try Fixture.sessionWithSavedTrips() }

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

  @Test("a save keeps the views of the tables it did not write, and drops the others")
  func viewsOfUnwrittenTablesKept() throws {
    let session = try session()
    for index in 0..<10 {
      _ = session.insert(entity: Fixture.business, name: "b\(index)", days: Int64(index))
    }
    try session.save()
    let indexes: [[IndexDefinition]] = [
      [IndexDefinition(.ordered, on: "days")], [IndexDefinition(.ordered, on: "days")], [],
    ]
    func request(_ days: Int64) -> QueryRequest {
      QueryRequest(
        entity: Fixture.trip, includesSubclasses: true,
        predicate: .comparison(.attribute("days"), .equal, .constant(.int(days))))
    }
    #expect(try plan(session, request(3), indexes: indexes).keys().count == 4)
    #expect(session.planCache.viewsHeld == 2)
    let tripTable = session.base.tables[Fixture.trip]
    let added = session.insert(entity: Fixture.business, name: "new", days: 3)
    try session.save()
    // The save wrote only the BusinessTrip table: Trip's table is the same object, and its
    // view stays with the plan.
    #expect(session.base.tables[Fixture.trip] === tripTable)
    #expect(session.planCache.viewsHeld == 1)
    let reused = try plan(session, request(3), indexes: indexes)
    #expect(reused.isFromCache)
    #expect(try reused.keys().count == 5)
    #expect(try reused.keys().contains(added))
    #expect(session.planCache.viewsHeld == 2)
    // A save that writes Trip's table drops that view too; the answers follow the new rows.
    let moved = try #require(try reused.keys().first { $0.entity == UInt32(Fixture.trip) })
    session.set(Int64(5), slot: Fixture.days, of: moved)
    try session.save()
    #expect(session.planCache.viewsHeld == 1)
    #expect(try plan(session, request(3), indexes: indexes).keys().count == 4)
    #expect(try plan(session, request(5), indexes: indexes).keys().contains(moved))
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
