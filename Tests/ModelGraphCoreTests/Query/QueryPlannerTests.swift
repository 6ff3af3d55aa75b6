import Foundation
import Testing

@testable import ModelGraphCore

/// The planner and executor over raw sessions, against plain filtering of the same rows.
@Suite("Query engine: planner and executor over sessions")
struct QueryPlannerTests {
  /// A session with `count` objects of the three classes; names `n0`…, days 0..<20, every
  /// third note `nil`.
  func makeSession(count: Int = 500) throws -> (Session, [ObjectKey]) {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    var keys: [ObjectKey] = []
    for index in 0..<count {
      let entity = [Fixture.trip, Fixture.business, Fixture.personal][index % 3]
      let key = session.insert(entity: entity, name: "n\(index)", days: Int64((index * 7) % 20))
      session.set(index % 3 == 0 ? nil : "note \(index % 5)", slot: Fixture.note, of: key)
      if entity == Fixture.business { session.set("c\(index % 4)", slot: Fixture.company, of: key) }
      if entity == Fixture.personal {
        session.set(UInt64(index % 3), slot: Fixture.reason, of: key)
      }
      keys.append(key)
    }
    try session.save()
    return (session, keys)
  }

  func source(_ session: Session, indexes: [[IndexDefinition]]) -> QuerySource {
    QuerySource(session: session, includePendingChanges: true) { indexes[$0.index] }
  }

  static let indexed: [[IndexDefinition]] = [
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
    [
      IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note"),
      IndexDefinition(.hash, on: "company"),
    ],
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
  ]

  @Test("indexed and scanned plans return the same keys", arguments: [true, false])
  func indexedAndScanned(withIndexes: Bool) throws {
    let (session, _) = try makeSession()
    let indexes = withIndexes ? Self.indexed : [[], [], []]
    let planner = QueryPlanner(source: source(session, indexes: indexes))
    let scanner = QueryPlanner(source: source(session, indexes: [[], [], []]))
    let requests: [QueryRequest] = [
      QueryRequest(
        entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(7)))
      ),
      QueryRequest(
        entity: Fixture.trip,
        predicate: .and([
          .comparison(.attribute("days"), .greaterOrEqual, .constant(.int(5))),
          .comparison(.attribute("days"), .less, .constant(.int(9))),
        ]),
        sort: [
          QuerySortKey(.attribute("days"), ascending: false), QuerySortKey(.attribute("name")),
        ],
        offset: 3, limit: 17),
      QueryRequest(
        entity: Fixture.trip, predicate: .comparison(.attribute("note"), .equal, .constant(.null))),
      QueryRequest(
        entity: Fixture.business,
        predicate: .comparison(.attribute("company"), .equal, .constant(.string("c2"))),
        sort: [QuerySortKey(.attribute("name"))]),
      QueryRequest(
        entity: Fixture.trip, includesSubclasses: false,
        predicate: .contains(.constant(.array([.int(1), .int(2), .int(3)])), .attribute("days"))),
      QueryRequest(entity: Fixture.trip, sort: [QuerySortKey(.attribute("days"))], limit: 10),
    ]
    for request in requests {
      let plan = try planner.plan(request)
      let reference = try scanner.plan(request)
      #expect(try plan.keys() == reference.keys(), "\(plan.explanation)")
      #expect(try plan.count() == reference.count())
    }
  }

  @Test("index lookups and merges leave out rows deleted since the save, with and without limits")
  func deletedRowsAfterIndexes() throws {
    let (session, keys) = try makeSession()
    // Unsaved deletions: the saved indexes still hold these rows.
    for (number, key) in keys.enumerated() where number % 7 == 2 || number % 11 == 5 {
      session.delete(key)
    }
    let planner = QueryPlanner(source: source(session, indexes: Self.indexed))
    let scanner = QueryPlanner(source: source(session, indexes: [[], [], []]))
    let company = QueryExpression.comparison(
      .attribute("company"), .equal, .constant(.string("c1")))
    let days = QueryExpression.and([
      .comparison(.attribute("days"), .greaterOrEqual, .constant(.int(4))),
      .comparison(.attribute("days"), .less, .constant(.int(15))),
    ])
    var requests: [QueryRequest] = [
      QueryRequest(entity: Fixture.business, predicate: company),
      QueryRequest(entity: Fixture.business, predicate: company, limit: 9),
      QueryRequest(
        entity: Fixture.trip, predicate: .comparison(.attribute("note"), .equal, .constant(.null)),
        limit: 20),
    ]
    for ascending in [true, false] {
      for limit in [1, 13, 50, 1_000] {
        requests.append(
          QueryRequest(
            entity: Fixture.trip, predicate: days,
            sort: [QuerySortKey(.attribute("days"), ascending: ascending)], limit: limit))
      }
    }
    for request in requests {
      let plan = try planner.plan(request)
      let reference = try scanner.plan(request)
      let found = try plan.keys()
      #expect(found == (try reference.keys()), "\(plan.explanation)")
      #expect(found.allSatisfy { session.table(Int($0.entity)).contains($0) })
    }
  }

  @Test("a residual test runs on candidates before sorting and slicing")
  func residual() throws {
    let (session, _) = try makeSession()
    let planner = QueryPlanner(source: source(session, indexes: Self.indexed))
    var request = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .less, .constant(.int(10))),
      sort: [QuerySortKey(.attribute("days"))], limit: 5)
    request.residual = "even rows"
    let plan = try planner.plan(request)
    let keys = try plan.keys { $0.row % 2 == 0 }
    #expect(keys.count == 5 && keys.allSatisfy { $0.row % 2 == 0 })
    #expect(
      plan.explanation.contains(
        "fallback: Predicate.evaluate on each candidate object for even rows"))
  }

  @Test("a count without a condition reads no rows")
  func classCount() throws {
    let (session, keys) = try makeSession(count: 300)
    let plan = try QueryPlanner(source: source(session, indexes: Self.indexed)).plan(
      QueryRequest(entity: Fixture.trip))
    #expect(try plan.count() == keys.count)
    #expect(plan.explanation.contains("Trip (100 objects): scan"))
  }

  @Test("unknown properties are query errors, not crashes")
  func unknownProperty() throws {
    let (session, _) = try makeSession(count: 10)
    let planner = QueryPlanner(source: source(session, indexes: Self.indexed))
    #expect(throws: QueryError.self) {
      try planner.plan(
        QueryRequest(
          entity: Fixture.trip,
          predicate: .comparison(.attribute("nope"), .equal, .constant(.int(1)))))
    }
    #expect(throws: QueryError.self) {
      try planner.plan(QueryRequest(entity: Fixture.trip, predicate: .opaque("something")))
    }
  }
}
