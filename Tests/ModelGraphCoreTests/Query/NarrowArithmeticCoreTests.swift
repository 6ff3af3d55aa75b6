import Foundation
import Testing

@testable import ModelGraphCore

/// ``QueryExpression/narrow(_:_:)`` computes its arithmetic as Swift does on the narrower type:
/// a result out of the type's range faults, one in range is Swift's.
@Suite("Query engine: arithmetic on narrow integers")
struct NarrowArithmeticCoreTests {
  let core = ArithmeticFaultCoreTests()
  static let n = QueryExpression.attribute("n")
  static let d = QueryExpression.attribute("d")

  /// The `n` of the rows `condition` selects among `rows`, or the code it faults with.
  func run(_ rows: [(Int64, Int64)], _ condition: QueryExpression) throws -> Result<
    [Int64], QueryError
  > {
    let session = try core.makeSession(rows)
    let plan = try core.plan(session, condition)
    do {
      let keys = try plan.keys()
      return .success(keys.map { session.get(Int64.self, slot: 0, of: $0) }.sorted())
    } catch let error as QueryError {
      return .failure(error)
    }
  }

  @Test("Int8 results out of -128...127 fault, naming the operator; others are Swift's")
  func int8() throws {
    let rows: [(Int64, Int64)] = [(-128, -1), (100, 27), (-7, 2), (127, 1)]
    func narrow(_ op: QueryArithmeticOperator) -> QueryExpression {
      .narrow(.arithmetic(Self.n, op, Self.d), .int8)
    }
    func positive(_ value: QueryExpression) -> QueryExpression {
      .comparison(value, .greater, .constant(.int(0)))
    }
    for (op, message) in [
      (QueryArithmeticOperator.add, "'+'"), (.divide, "'/'"), (.remainder, "'%'"),
    ] {
      guard case .failure(let error) = try run(rows, positive(narrow(op))) else {
        Issue.record("\(op): no fault")
        continue
      }
      #expect(error.code == .arithmeticOverflow, "\(op)")
      #expect(error.message == "integer overflow in \(message)", "\(op)")
    }
    // Without the rows that overflow, Swift's Int8 answers.
    let fitting: [(Int64, Int64)] = [(-7, 2), (100, 27), (63, -2)]
    #expect(try run(fitting, positive(narrow(.add))).get() == [63, 100])
    #expect(try run(fitting, positive(narrow(.remainder))).get() == [63, 100])
    #expect(
      try run(fitting, .comparison(narrow(.divide), .equal, .constant(.int(-3)))).get() == [-7])
    let negated = QueryExpression.narrow(.negative(Self.n), .int8)
    #expect(throws: QueryError.self) { try run(rows, positive(negated)).get() }
    #expect(try run(fitting, positive(negated)).get() == [-7])
    #expect("\(negated)" == "Int8(-$0.n)")
  }

  @Test("UInt16 results below zero or above 65535 fault")
  func uint16() throws {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Item",
        attributes: [AttributeDescription(name: "u", valueType: .uint)])
    ])
    let session = Session(store: store)
    for value: UInt64 in [0, 65_535, 7] {
      session.set(value, slot: 0, of: session.insert(entity: 0))
    }
    try session.save()
    let source = QuerySource(session: session, includePendingChanges: true) { _ in [] }
    func count(_ op: QueryArithmeticOperator, _ operand: UInt64) throws -> Int {
      let condition = QueryExpression.comparison(
        .narrow(.arithmetic(.attribute("u"), op, .constant(.uint(operand))), .uint16), .greater,
        .constant(.uint(6)))
      return try QueryPlanner(source: source).plan(QueryRequest(entity: 0, predicate: condition))
        .count()
    }
    #expect(throws: QueryError.self) { try count(.add, 1) }
    #expect(throws: QueryError.self) { try count(.subtract, 1) }
    #expect(try count(.multiply, 1) == 2)
    #expect(try count(.divide, 9_362) == 1)
  }
}
