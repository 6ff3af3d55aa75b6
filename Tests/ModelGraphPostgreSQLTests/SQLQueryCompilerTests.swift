import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

/// The SQL compiler alone: no server needed.
@Suite("SQL compilation of queries") struct SQLQueryCompilerTests {
  /// `Trip(name, days, score?)` with subclasses `BusinessTrip` and `PersonalTrip`.
  static let catalog = try! SchemaCatalog().adding([
    EntityDescription(
      name: "Trip",
      attributes: [
        AttributeDescription(name: "name", valueType: .string),
        AttributeDescription(name: "days", valueType: .int),
        AttributeDescription(name: "score", valueType: .double, isOptional: true),
        AttributeDescription(name: "photo", valueType: .data, isOptional: true),
      ]),
    EntityDescription(name: "BusinessTrip", parent: "Trip"),
    EntityDescription(name: "PersonalTrip", parent: "Trip"),
  ])

  static let compiler = SQLQueryCompiler(
    catalog: catalog, described: ["Trip", "BusinessTrip", "PersonalTrip"], unicode: true,
    codes: ["Trip": 1, "BusinessTrip": 2, "PersonalTrip": 3])

  @Test("a deep query reads every table of the hierarchy; a shallow one, one table")
  func tables() {
    let deep = Self.compiler.compile(QueryRequest(entity: 0))
    #expect(
      deep.sql
        == "SELECT id FROM \"Trip\" t UNION ALL SELECT id FROM \"BusinessTrip\" t "
        + "UNION ALL SELECT id FROM \"PersonalTrip\" t")
    let shallow = Self.compiler.compile(QueryRequest(entity: 0, includesSubclasses: false))
    #expect(shallow.sql == "SELECT id FROM \"Trip\" t")
    // A class without a table yet reads nothing.
    let none = SQLQueryCompiler(catalog: Self.catalog, described: [], unicode: true, codes: [:])
      .compile(QueryRequest(entity: 0))
    #expect(none.sql == "SELECT NULL::bigint AS id WHERE false")
  }

  @Test("a type test chooses tables: it is a constant per table")
  func typeTest() {
    let request = QueryRequest(
      entity: 0, predicate: .typeTest(.root, "BusinessTrip", isExact: false))
    let sql = Self.compiler.compile(request).sql
    #expect(sql.contains("FROM \"Trip\" t WHERE false"))
    #expect(sql.contains("FROM \"BusinessTrip\" t WHERE true"))
    #expect(sql.contains("FROM \"PersonalTrip\" t WHERE false"))
  }

  @Test("comparisons follow Swift: nil equals nil, NaN equals nothing, never NULL")
  func comparisons() {
    let equalNil = Self.compiler.compile(
      QueryRequest(
        entity: 0, includesSubclasses: false,
        predicate: .comparison(.attribute("score"), .equal, .constant(.null))))
    #expect(
      equalNil.sql.hasSuffix(
        "WHERE (t.\"score\" IS NOT DISTINCT FROM NULL AND t.\"score\" IS DISTINCT FROM 'NaN'::float8)"
      ))
    let notEqual = Self.compiler.compile(
      QueryRequest(
        entity: 0, includesSubclasses: false,
        predicate: .comparison(.attribute("score"), .notEqual, .constant(.double(1)))))
    #expect(
      notEqual.sql.hasSuffix(
        "WHERE (NOT (t.\"score\" IS NOT DISTINCT FROM ('1.0'::float8)::float8 "
          + "AND t.\"score\" IS DISTINCT FROM 'NaN'::float8))"))
    let less = Self.compiler.compile(
      QueryRequest(
        entity: 0, includesSubclasses: false,
        predicate: .not(.comparison(.attribute("days"), .less, .constant(.int(3))))))
    #expect(less.sql.hasSuffix("WHERE (NOT COALESCE(t.\"days\" < (3)::bigint, false))"))
  }

  @Test("an untranslatable conjunct is dropped and reported, and the window is not pushed")
  func fallback() {
    var request = QueryRequest(
      entity: 0, includesSubclasses: false,
      predicate: .and([
        .comparison(.attribute("days"), .greater, .constant(.int(2))),
        .string(.attribute("name"), .hasPrefix, .constant(.string("a"))),
      ]),
      sort: [QuerySortKey(.attribute("days"))], limit: 5)
    let fetch = Self.compiler.compile(request)
    #expect(
      fetch.sql == "SELECT id FROM \"Trip\" t WHERE COALESCE(t.\"days\" > (2)::bigint, false)")
    #expect(fetch.fallbacks.count == 1)
    #expect(!fetch.windowPushed)
    // A sort key without an SQL order like Swift's keeps the window in memory too.
    request.predicate = nil
    request.sort = [QuerySortKey(.attribute("photo"))]
    let unsorted = Self.compiler.compile(request)
    #expect(!unsorted.windowPushed)
    #expect(unsorted.fallbacks.first?.contains("the sort by") == true)
  }

  @Test("nested Double comparisons compile to SQL that grows linearly with the depth")
  func nestedDoubleComparisons() {
    let operators: [QueryComparisonOperator] = [
      .less, .greaterOrEqual, .equal, .notEqual, .greater, .lessOrEqual,
    ]
    /// `depth` levels, each comparing the one inside it (with a constant, or with a value
    /// that is not one) and giving the score or a constant.
    func length(_ depth: Int) -> Int {
      var value = QueryExpression.attribute("score")
      for level in 0..<depth {
        let other: QueryExpression =
          level % 4 == 3
          ? .conditional(
            .comparison(.attribute("score"), .less, .constant(.double(1))),
            .constant(.double(0.5)), .attribute("score"))
          : .constant(.double(Double(level) / 4))
        value = .conditional(
          .comparison(value, operators[level % operators.count], other),
          .attribute("score"), .constant(.double(2)))
      }
      let request = QueryRequest(
        entity: 0, includesSubclasses: false,
        predicate: .comparison(value, .greater, .constant(.double(0.25))))
      let fetch = Self.compiler.compile(request)
      #expect(fetch.fallbacks.isEmpty)
      return fetch.sql.utf8.count
    }
    let (ten, twenty) = (length(10), length(20))
    // Ten more levels add about as much as the first ten (each level copied what it compared
    // two or three times before: 2^10 times as much).
    #expect(twenty - ten < ten + 1_000, "\(ten) then \(twenty) characters")
  }

  /// `Node(name, parent?)`: a self-referencing optional to-one, to chain.
  static let nodes = SQLQueryCompiler(
    catalog: try! SchemaCatalog().adding([
      EntityDescription(
        name: "Node",
        attributes: [AttributeDescription(name: "name", valueType: .string)],
        relationships: [
          RelationshipDescription(name: "parent", destination: "Node", isToMany: false)
        ])
    ]),
    described: ["Node"], unicode: true, codes: ["Node": 1])

  /// The SQL of `$0.parent?.parent?…?.name == "x"` with `depth` relationships, nested as the
  /// `#Predicate` macro nests optional chaining (each `?.` a flatMap of the chain so far),
  /// or of `depth` optional bindings nested inside each other when `inner`.
  static func chainSQL(_ depth: Int, inner: Bool = false) -> String {
    var chain: QueryExpression
    if inner {
      // `$0.parent.flatMap { $1.parent.flatMap { … $n.name } }`
      chain = .attribute(.variable(depth), "name")
      for level in stride(from: depth, through: 1, by: -1) {
        chain = .flatMap(
          .relationship(.variable(level - 1), "parent"), variable: level, chain)
      }
    } else {
      chain = .relationship(.root, "parent")
      for level in 1..<max(depth, 1) {
        chain = .flatMap(chain, variable: level, .relationship(.variable(level), "parent"))
      }
      chain = .flatMap(chain, variable: depth, .attribute(.variable(depth), "name"))
    }
    let fetch = nodes.compile(
      QueryRequest(
        entity: 0, includesSubclasses: false,
        predicate: .comparison(chain, .equal, .constant(.string("x")))))
    #expect(fetch.fallbacks.isEmpty, "\(fetch.fallbacks)")
    return fetch.sql
  }

  @Test("an optional chain of to-one relationships compiles to SQL linear in its length")
  func optionalChain() {
    for inner in [false, true] {
      let lengths = [1, 2, 4, 8, 16].map { Self.chainSQL($0, inner: inner).utf8.count }
      // Each level adds a bounded number of characters (it wrote the chain so far twice).
      let step = lengths[1] - lengths[0]
      #expect(lengths[4] - lengths[3] <= 8 * (step + 100), "\(lengths)")
      #expect(lengths[4] < 16 * 600, "\(lengths)")
    }
  }

  @Test("nested conditionals on a value compile to SQL linear in their depth")
  func nestedConditionals() {
    /// `depth` levels, each holding the one inside it once: as the test, the value when
    /// true, or the value when false (an optional one, through `flatMap`).
    func length(_ depth: Int) -> Int {
      var value = QueryExpression.attribute("name")
      let (a, b) = (QueryExpression.constant(.string("a")), QueryExpression.constant(.string("b")))
      for level in 0..<depth {
        switch level % 3 {
        case 0: value = .conditional(.comparison(value, .equal, a), b, .attribute("name"))
        case 1:
          value = .conditional(
            .comparison(.attribute("name"), .less, a),
            .flatMap(value, variable: level, .variable(level)), .constant(.null))
        default:
          value = .conditional(
            .comparison(.attribute("days"), .less, .constant(.int(3))), .coalesce(value, a), b)
        }
      }
      let fetch = Self.compiler.compile(
        QueryRequest(
          entity: 0, includesSubclasses: false,
          predicate: .comparison(value, .equal, .constant(.string("x")))))
      #expect(fetch.fallbacks.isEmpty, "\(fetch.fallbacks)")
      return fetch.sql.utf8.count
    }
    let (ten, twenty) = (length(10), length(20))
    #expect(twenty - ten < ten + 1_000, "\(ten) then \(twenty) characters")
  }

  @Test("a sort with a limit is pushed down with ties; a Double key loads every NaN match")
  func window() {
    let request = QueryRequest(
      entity: 0, includesSubclasses: false,
      sort: [QuerySortKey(.attribute("days"), ascending: false)],
      offset: 2, limit: 3)
    let fetch = Self.compiler.compile(request)
    #expect(fetch.windowPushed)
    #expect(
      fetch.sql
        == "WITH q AS (SELECT id, t.\"days\" AS k0 FROM \"Trip\" t) SELECT id FROM q "
        + "ORDER BY k0 DESC NULLS LAST FETCH FIRST 5 ROWS WITH TIES")
    var byScore = request
    byScore.sort = [QuerySortKey(.attribute("score"))]
    let nan = Self.compiler.compile(byScore)
    #expect(nan.sql.contains("WHERE NOT n.nan ORDER BY k0 ASC NULLS FIRST FETCH FIRST 5 ROWS"))
    #expect(nan.sql.hasSuffix("UNION ALL SELECT id FROM q, n WHERE n.nan"))
  }

  @Test("residency in the URL: fetched, all, or a clear error")
  func residencyOption() throws {
    let (url, fetched) = try PostgreSQLStore.residency(
      of: "postgresql://u@/db?host=%2Ftmp&residency=fetched&options=-csearch_path%3Ds")
    #expect(url == "postgresql://u@/db?host=%2Ftmp&options=-csearch_path%3Ds")
    #expect(fetched)
    #expect(
      try PostgreSQLStore.residency(of: "postgresql://u@/db?residency=all").keepsOnlyFetched
        == false)
    let error = #expect(throws: PostgreSQLError.self) {
      try PostgreSQLStore.residency(of: "postgresql://u@/db?residency=some")
    }
    #expect(error?.code == .invalidURL)
  }
}
