import Foundation
import Testing

@testable import ModelGraphCore

/// Conditions that once stopped the process or took exponential time.
@Suite("Query engine: hostile conditions")
struct QueryRobustnessTests {
  /// A store of `Amount(value: Decimal)` holding `values`.
  func makeSession(_ values: [Decimal]) throws -> Session {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Amount", attributes: [AttributeDescription(name: "value", valueType: .decimal)])
    ])
    let session = Session(store: store)
    for value in values {
      let key = session.insert(entity: 0)
      session.set(value, slot: 0, of: key)
    }
    try session.save()
    return session
  }

  func count(_ session: Session, _ predicate: QueryExpression) throws -> Int {
    let source = QuerySource(session: session, includePendingChanges: true) { _ in [] }
    return try QueryPlanner(source: source).plan(QueryRequest(entity: 0, predicate: predicate))
      .count()
  }

  @Test("Decimal arithmetic that underflows or overflows is an error, not a trap")
  func decimalOutOfRange() throws {
    let session = try makeSession([
      Decimal(string: "1e-100")!, Decimal(string: "1e120")!, Decimal(2),
    ])
    let square = QueryExpression.arithmetic(.attribute("value"), .multiply, .attribute("value"))
    // 1e-200 and 1e240 do not fit a Decimal: the count fails, naming the operator.
    #expect(throws: QueryError(.arithmeticOverflow, "the Decimal result of '*' is out of range")) {
      try count(session, .comparison(square, .greater, .constant(.decimal(0))))
    }
    let quotient = QueryExpression.arithmetic(
      .attribute("value"), .divide, .constant(.decimal(0)))
    #expect(throws: QueryError(.divisionByZero, "division by zero in '/'")) {
      try count(session, .comparison(quotient, .greater, .constant(.decimal(0))))
    }
    // Only 2 * 2 is computed on.
    let small = QueryExpression.comparison(.attribute("value"), .equal, .constant(.decimal(2)))
    #expect(
      try count(session, .and([small, .comparison(square, .greater, .constant(.decimal(0)))]))
        == 1)
  }

  @Test("nested NOTs compile in linear time")
  func nestedNots() throws {
    let session = try makeSession([1, 2, 3])
    var predicate = QueryExpression.comparison(
      .attribute("value"), .equal, .constant(.decimal(2)))
    for _ in 0..<40 { predicate = .not(predicate) }
    // 40 NOTs: the original condition. Exponential compilation would not finish.
    #expect(try count(session, predicate) == 1)
    #expect(try count(session, .not(predicate)) == 2)
  }

  @Test("checked Decimal arithmetic refuses what Foundation would trap on")
  func checkedArithmetic() {
    let tiny = Decimal(string: "1e-100")!
    let huge = Decimal(string: "1e120")!
    #expect(DecimalArithmetic.result(tiny, .multiply, tiny) == nil)
    #expect(DecimalArithmetic.result(huge, .multiply, huge) == nil)
    #expect(DecimalArithmetic.result(huge, .divide, 0) == nil)
    #expect(DecimalArithmetic.result(Decimal(string: "2.5")!, .multiply, 4) == 10)
  }
}
