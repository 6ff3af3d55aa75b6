import Foundation
import Testing

@testable import ModelGraphCore

/// Arithmetic that faults on a row a plan tests makes the plan's run throw: a row test, a
/// sort key, a count, each run of a plan cleared of the run before.
@Suite("Query engine: arithmetic faults")
struct ArithmeticFaultCoreTests {
  /// A store of `Item(n: Int, d: Int)` holding `rows`.
  func makeSession(_ rows: [(Int64, Int64)]) throws -> Session {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Item",
        attributes: [
          AttributeDescription(name: "n", valueType: .int),
          AttributeDescription(name: "d", valueType: .int),
        ])
    ])
    let session = Session(store: store)
    for (n, d) in rows {
      let key = session.insert(entity: 0)
      session.set(n, slot: 0, of: key)
      session.set(d, slot: 1, of: key)
    }
    try session.save()
    return session
  }

  func plan(_ session: Session, _ predicate: QueryExpression?, sort: [QuerySortKey] = [])
    throws -> QueryPlan
  {
    let source = QuerySource(session: session, includePendingChanges: true) { _ in [] }
    return try QueryPlanner(source: source).plan(
      QueryRequest(entity: 0, predicate: predicate, sort: sort))
  }

  static let n = QueryExpression.attribute("n")
  static let d = QueryExpression.attribute("d")

  /// The error `body` throws, if a `QueryError`.
  func error(_ body: () throws -> Any) -> QueryError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error as? QueryError
    }
  }

  @Test("a row test that faults makes keys and count throw, naming the operator")
  func rowTest() throws {
    let session = try makeSession([(Int64.max, 0), (8, 2)])
    let sum = QueryExpression.comparison(
      .arithmetic(Self.n, .add, .constant(.int(1))), .notEqual, .constant(.int(0)))
    let plan = try plan(session, sum)
    for run in [{ try plan.keys() as Any }, { try plan.count() as Any }] {
      let thrown = error(run)
      #expect(thrown?.code == .arithmeticOverflow)
      #expect(thrown?.message == "integer overflow in '+'")
      #expect(thrown?.isArithmeticFault == true)
    }
    let quotient = QueryExpression.comparison(
      .arithmetic(Self.n, .remainder, Self.d), .equal, .constant(.int(0)))
    let thrown = error { try self.plan(session, quotient).keys() }
    #expect(thrown?.code == .divisionByZero)
    #expect(thrown?.message == "division by zero in '%'")
    let negated = QueryExpression.comparison(
      .negative(.arithmetic(Self.d, .add, .constant(.int(Int64.min)))), .less,
      .constant(.int(0)))
    #expect(error { try self.plan(session, negated).count() }?.message == "integer overflow in '-'")
  }

  @Test("a sort key that faults makes keys throw")
  func sortKey() throws {
    let session = try makeSession([(Int64.max, 0), (8, 2)])
    let key = QuerySortKey(.arithmetic(Self.n, .multiply, .constant(.int(2))))
    let plan = try plan(session, nil, sort: [key])
    #expect(error { try plan.keys() }?.code == .arithmeticOverflow)
    let fine = try self.plan(session, nil, sort: [QuerySortKey(Self.d)])
    #expect(try fine.keys().count == 2)
  }

  @Test("each run starts without the fault of the run before")
  func runsAreIndependent() throws {
    let session = try makeSession([(8, 2), (9, 3)])
    let quotient = QueryExpression.comparison(
      .arithmetic(Self.n, .divide, Self.d), .greater, .constant(.int(2)))
    let plan = try plan(session, quotient)
    #expect(try plan.count() == 2)
    // A zero divisor inserted: the next plan faults, and the one after (the row deleted) not.
    let key = session.insert(entity: 0)
    session.set(Int64(1), slot: 0, of: key)
    session.set(Int64(0), slot: 1, of: key)
    #expect(error { try self.plan(session, quotient).count() }?.code == .divisionByZero)
    session.delete(key)
    #expect(try self.plan(session, quotient).keys().count == 2)
  }

  @Test("conjuncts and disjuncts keep their order once arithmetic can fault")
  func order() throws {
    let session = try makeSession([(Int64.max, 0), (8, 2), (1, 0)])
    let divides = QueryExpression.comparison(
      .arithmetic(Self.n, .divide, Self.d), .greater, .constant(.int(2)))
    // A costly guard (a comparison of two computed values) written first.
    let guarded = QueryExpression.comparison(
      .coalesce(Self.d, .constant(.int(0))), .notEqual,
      .arithmetic(.constant(.int(0)), .multiply, Self.n))
    #expect(try plan(session, .and([guarded, divides])).count() == 1)
    #expect(
      try plan(session, .or([.comparison(Self.d, .equal, .constant(.int(0))), divides])).count()
        == 3)
    #expect(error { try self.plan(session, .and([divides, guarded])).count() } != nil)
  }

  @Test("CompiledCondition.all keeps the order given when asked")
  func allKeepsOrder() {
    var calls: [Int] = []
    let costly = CompiledCondition(
      test: { _ in
        calls.append(1)
        return false
      }, cost: 32)
    let cheap = CompiledCondition(
      test: { _ in
        calls.append(2)
        return true
      }, cost: 1)
    _ = CompiledCondition.all([costly, cheap], keepingOrder: true).test(0)
    #expect(calls == [1])
    calls = []
    _ = CompiledCondition.all([costly, cheap]).test(0)
    #expect(calls == [2, 1])
  }
}
