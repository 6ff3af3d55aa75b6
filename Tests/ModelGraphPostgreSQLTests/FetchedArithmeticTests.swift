import Foundation
import ModelGraph
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Integer arithmetic that overflows or divides by zero is `nil` in the engine; the SQL of
  /// a fetched-mode fetch agrees instead of failing the statement.
  @Suite("Arithmetic that overflows or divides by zero") struct FetchedArithmetic {
    static func descriptors() -> [(String, FetchDescriptor<Member>)] {
      let zero = 0
      let big = Int.max
      let small = Int.min
      var all: [(String, FetchDescriptor<Member>)] = []
      func add(_ name: String, _ predicate: Predicate<Member>) {
        all.append((name, FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])))
      }
      add("divided by a zero constant", #Predicate { $0.score / zero == 1 })
      add("not divided by a zero constant", #Predicate { !($0.score / zero == 1) })
      add("a remainder by a zero constant", #Predicate { $0.score % zero < 1 })
      add("divided by zero on some rows", #Predicate { $0.score / ($0.score - 3) > 0 })
      add("a remainder by zero on some rows", #Predicate { $0.score % ($0.score - 3) == 0 })
      add("a product that overflows", #Predicate { $0.score * big > 0 })
      add("a sum that overflows", #Predicate { $0.score + big >= big })
      add("a difference that overflows", #Predicate { small - $0.score <= small })
      add("Int.min divided by -1", #Predicate { (small + $0.score) / -1 > 0 })
      add("Int.min remainder by -1", #Predicate { (small + $0.score) % -1 == 0 })
      add("Int.min negated", #Predicate { -(small + $0.score) > 0 })
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { 100 / ($0.score - 5) > 10 || $0.score * big < 0 },
        sortBy: [SortDescriptor(\.score, order: .reverse)])
      top.fetchLimit = 4
      all.append(("a window over a quotient by zero", top))
      return all
    }

    @Test("both modes select the same objects, and the SQL is run whole")
    func differential() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seed(url, members: 30)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partialContainer = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(\.persistentModelID)
        let partial = ModelContext(partialContainer)
        #expect(try !partial.explain(descriptor).contains("not in SQL"), "\(name)")
        #expect(try partial.fetchCount(descriptor) == expected.count, "\(name)")
        #expect(try partial.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
      }
    }
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedArithmetic {
  /// `value op other` as the engine computes it: `nil` on overflow or a division by zero.
  static func engine(_ value: Int64?, _ op: QueryArithmeticOperator, _ other: Int64) -> Int64? {
    guard let value else { return nil }
    let (result, overflow): (Int64, Bool)
    switch op {
    case .add: (result, overflow) = value.addingReportingOverflow(other)
    case .subtract: (result, overflow) = value.subtractingReportingOverflow(other)
    case .multiply: (result, overflow) = value.multipliedReportingOverflow(by: other)
    case .divide:
      guard other != 0 else { return nil }
      (result, overflow) = value.dividedReportingOverflow(by: other)
    case .remainder:
      guard other != 0 else { return nil }
      (result, overflow) = value.remainderReportingOverflow(dividingBy: other)
    }
    return overflow ? nil : result
  }

  @Test("20 nested integer steps compile to SQL of linear size, with the engine's results")
  func nestedSteps() throws {
    let url = try TestServer.freshURL()
    let operators = QueryArithmeticOperator.allCases
    let steps = (0..<20).map { operators[$0 % operators.count] }
    var sql = "v.x"
    for op in steps { sql = SQLQueryCompiler.integerArithmetic(sql, op, "v.x") }
    // One step adds a bounded number of characters (it read its operand 2^19 times before).
    #expect(sql.utf8.count < 20 * 200, "\(sql.utf8.count) characters")
    let inputs: [Int64] = [1, 2, 3, -3, 7, 0, 1 << 20, Int64.max, Int64.min, -1]
    let values = inputs.map { "('\($0)'::bigint)" }.joined(separator: ", ")
    let read = try TestServer.query(
      "SELECT (\(sql))::text FROM (VALUES \(values)) v(x) ORDER BY x", at: url)
    let expected = inputs.sorted().map { input in
      steps.reduce(Optional(input)) { Self.engine($0, $1, input) }.map { "\($0)" }
    }
    #expect(read == expected)
  }
}
