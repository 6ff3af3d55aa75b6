import Foundation
import Testing

@testable import ModelGraph

/// The shape cache finds a fetch's shape by its expression's type and checks the tree against
/// each shape kept for that type: predicates of one type that differ in a key path, an
/// operator or a constant never share a translation, and a forgotten shape is learnt again.
@Suite("Query: matching a predicate against the shapes of its type")
struct PredicateShapeMatchTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make() }

  /// Whether fetching `predicate` finds the objects filtering every `T` with it finds.
  func compare<T: PersistentModel>(_ predicate: Predicate<T>, _ label: String) throws {
    let all = try context.fetch(FetchDescriptor<T>())
    let expected = Set(try all.filter { try predicate.evaluate($0) }.map(\.persistentModelID))
    let fetched = try context.fetch(FetchDescriptor(predicate: predicate))
    #expect(Set(fetched.map(\.persistentModelID)) == expected, "\(label)")
    #expect(fetched.count == expected.count, "\(label)")
  }

  @Test("one expression type, two key paths of one type: each its own translation")
  func keyPathsOfOneType() throws {
    let companies = QueryFixture.companies
    let names = try context.fetch(FetchDescriptor<QBusiness>()).prefix(4).map(\.name)
    let byCompany = { (value: String) in #Predicate<QBusiness> { $0.company == value } }
    let byName = { (value: String) in #Predicate<QBusiness> { $0.name == value } }
    // The test is about trees of one type, which only their key paths tell apart.
    #expect(type(of: byCompany("x").expression) == type(of: byName("x").expression))
    for round in 0..<3 {
      for (company, name) in zip(companies, names) {
        try compare(byCompany(company), "company \(company), round \(round)")
        try compare(byName(name), "name \(name), round \(round)")
        // A value of the other attribute finds nothing (or what the other attribute holds).
        try compare(byCompany(name), "company named \(name), round \(round)")
        try compare(byName(company), "name \(company), round \(round)")
      }
    }
    // Four fetches per pair and round, over two shapes, each learnt by its first fetch.
    #expect(context.predicateShapes.count == 2)
    #expect(context.predicateShapes.hits == min(companies.count, names.count) * 4 * 3 - 2)
  }

  @Test("a computed property beside a stored one of its type: translated every time")
  func refusedBesideKept() throws {
    let name = try context.fetch(FetchDescriptor<QTrip>()).first!.name
    let stored = #Predicate<QTrip> { $0.name == name }
    let label = name + "!"
    let computed = #Predicate<QTrip> { $0.label == label }
    #expect(type(of: stored.expression) == type(of: computed.expression))
    for round in 0..<3 {
      try compare(computed, "computed, round \(round)")
      try compare(stored, "stored, round \(round)")
    }
    // The stored one's shape is kept and reused; the computed one's is kept as refused.
    #expect(context.predicateShapes.count == 2)
    #expect(context.predicateShapes.hits == 2)
    let plan = try context.explain(FetchDescriptor(predicate: computed))
    #expect(plan.contains("computed or @Transient String property"), "\(plan)")
  }

  @Test("operators of one expression type, and a literal beside a captured value")
  func operatorsAndLiterals() throws {
    let nights = 4
    let less = #Predicate<QTrip> { $0.nights < nights }
    let greater = #Predicate<QTrip> { $0.nights > nights }
    let literal = #Predicate<QTrip> { $0.nights < 7 }
    #expect(type(of: less.expression) == type(of: greater.expression))
    #expect(type(of: less.expression) == type(of: literal.expression))
    for round in 0..<2 {
      try compare(less, "< \(nights), round \(round)")
      try compare(greater, "> \(nights), round \(round)")
      try compare(literal, "< 7, round \(round)")
    }
    #expect(context.predicateShapes.count == 2)
  }

  @Test("more shapes of one type than the cache keeps: each fetch stays right")
  func evictionWithinOneType() throws {
    // Four comparisons of `nights`, each with one of four operators: 256 shapes, all of one
    // expression type.
    let operators: [PredicateExpressions.ComparisonOperator] = [
      .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
    ]
    func predicate(_ code: Int, _ bound: Int) -> Predicate<QTrip> {
      let ops = (0..<4).map { operators[(code >> (2 * $0)) & 3] }
      return Predicate<QTrip> { trip in
        PredicateExpressions.build_Conjunction(
          lhs: PredicateExpressions.build_Conjunction(
            lhs: Self.nights(trip, ops[0], bound - 2), rhs: Self.nights(trip, ops[1], bound)),
          rhs: PredicateExpressions.build_Disjunction(
            lhs: Self.nights(trip, ops[2], bound + 1), rhs: Self.nights(trip, ops[3], bound - 1)))
      }
    }
    let codes = Array(0..<(PredicateShapeCache.capacity + 10))
    for pass in 0..<2 {
      for code in codes {
        try compare(predicate(code, 3 + code % 5), "shape \(code), pass \(pass)")
      }
      #expect(context.predicateShapes.count == PredicateShapeCache.capacity)
    }
    // The last shapes learnt are still kept: fetched again, they come from the cache.
    let hits = context.predicateShapes.hits
    for code in codes.suffix(8) { try compare(predicate(code, 2), "kept shape \(code)") }
    #expect(context.predicateShapes.hits == hits + 8)
  }

  /// `trip.nights op value`.
  static func nights(
    _ trip: PredicateExpressions.Variable<QTrip>, _ op: PredicateExpressions.ComparisonOperator,
    _ value: Int
  )
    -> PredicateExpressions.Comparison<
      PredicateExpressions.KeyPath<PredicateExpressions.Variable<QTrip>, Int>,
      PredicateExpressions.Value<Int>
    >
  {
    PredicateExpressions.build_Comparison(
      lhs: PredicateExpressions.build_KeyPath(root: trip, keyPath: \QTrip.nights),
      rhs: PredicateExpressions.build_Arg(value), op: op)
  }
}
