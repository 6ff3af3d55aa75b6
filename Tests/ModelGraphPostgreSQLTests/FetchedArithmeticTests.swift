import Foundation
import ModelGraph
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Integer arithmetic that overflows or divides by zero fails the fetch in the engine; the
  /// SQL of a fetched-mode fetch fails the statement (SQLSTATE 22003 or 22012), which the
  /// fetch reports as the same error.
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
      add("a guarded division", #Predicate { $0.score != 3 && $0.score / ($0.score - 3) >= 0 })
      add("a division after ||", #Predicate { $0.score == 3 || $0.score / ($0.score - 3) > 0 })
      add(
        "a guard after arithmetic that fits",
        #Predicate { $0.score * 2 > 1 && $0.score != 3 && 6 % ($0.score - 3) == 0 })
      add("arithmetic that fits", #Predicate { $0.score * 3 - 2 > 10 && -$0.score < -5 })
      add(
        "a branch no row takes",
        #Predicate { ($0.score > 100 ? $0.score / zero : $0.score) > 4 })
      return all
    }

    /// What a fetch gives: its objects, or the code of the error it throws.
    enum Outcome: Equatable {
      case objects([PersistentIdentifier])
      case count(Int)
      case fault(ModelError.Code)
    }

    static func outcome(_ body: () throws -> Outcome) -> Outcome {
      do {
        return try body()
      } catch let error as ModelError {
        return .fault(error.code)
      } catch {
        return .fault(.predicateFailed)
      }
    }

    @Test("both modes give the same objects or the same error, and the SQL is run whole")
    func differential() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seed(url, members: 30)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partialContainer = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      var faults = 0
      for (name, descriptor) in Self.descriptors() {
        let expected = Self.outcome {
          .objects(try full.fetch(descriptor).map(\.persistentModelID))
        }
        let expectedCount = Self.outcome { .count(try full.fetchCount(descriptor)) }
        if case .fault(let code) = expected {
          faults += 1
          #expect(code == .arithmeticOverflow || code == .divisionByZero, "\(name)")
        }
        let partial = ModelContext(partialContainer)
        #expect(try !partial.explain(descriptor).contains("not in SQL"), "\(name)")
        #expect(
          Self.outcome { .count(try partial.fetchCount(descriptor)) } == expectedCount, "\(name)")
        #expect(
          Self.outcome { .objects(try partial.fetch(descriptor).map(\.persistentModelID)) }
            == expected, "\(name)")
        // A failed fetch leaves the connection usable.
        #expect(try partial.fetchCount(FetchDescriptor<Member>()) == 30, "\(name)")
      }
      #expect(faults == 11)
    }
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedArithmetic {
  /// `value op other` as Swift computes it on `T`: `nil` where Swift stops the process, with
  /// the SQLSTATE PostgreSQL fails with there.
  static func swift<T: FixedWidthInteger>(_ value: T, _ op: QueryArithmeticOperator, _ other: T)
    -> (T?, fault: String?)
  {
    let (result, overflow): (T, Bool)
    switch op {
    case .add: (result, overflow) = value.addingReportingOverflow(other)
    case .subtract: (result, overflow) = value.subtractingReportingOverflow(other)
    case .multiply: (result, overflow) = value.multipliedReportingOverflow(by: other)
    case .divide:
      guard other != 0 else { return (nil, "22012") }
      (result, overflow) = value.dividedReportingOverflow(by: other)
    case .remainder:
      guard other != 0 else { return (nil, "22012") }
      (result, overflow) = value.remainderReportingOverflow(dividingBy: other)
    }
    return overflow ? (nil, "22003") : (result, nil)
  }

  @Test("20 nested integer steps compile to SQL of linear size, failing where Swift does")
  func nestedSteps() throws {
    let url = try TestServer.freshURL()
    let operators = QueryArithmeticOperator.allCases
    let steps = (0..<20).map { operators[$0 % operators.count] }
    var sql = "v.x"
    for op in steps { sql = SQLQueryCompiler.integerArithmetic(sql, op, "v.x") }
    // One step adds a bounded number of characters (it read its operand 2^19 times before).
    #expect(sql.utf8.count < 20 * 200, "\(sql.utf8.count) characters")
    let inputs: [Int64] = [1, 2, 3, -3, 7, 0, 1 << 20, Int64.max, Int64.min, -1]
    var faults = 0
    for input in inputs {
      var value: Int64? = input
      var fault: String?
      for op in steps where fault == nil {
        (value, fault) = Self.swift(value!, op, input)
      }
      do {
        let read = try TestServer.query(
          "SELECT (\(sql))::text FROM (VALUES ('\(input)'::bigint)) v(x)", at: url)
        #expect(fault == nil && read == [value.map { "\($0)" }], "\(input): \(read)")
      } catch let error as PostgreSQLError {
        faults += 1
        #expect(error.sqlState == fault, "\(input): \(error)")
        #expect(error.arithmeticFault != nil, "\(input)")
      }
    }
    #expect(faults > 0)
  }

  @Test("operands after a guard are tested in order through CASE; others stay a plain AND")
  func orderedOperands() {
    typealias Part = (sql: String, hasArithmetic: Bool)
    let guardPart: Part = ("g", false)
    let other: Part = ("o", false)
    let divides: Part = ("a", true)
    #expect(SQLQueryCompiler.conjunction([guardPart, other]) == "(g AND o)")
    #expect(SQLQueryCompiler.conjunction([divides, other]) == "(a AND o)")
    #expect(
      SQLQueryCompiler.conjunction([guardPart, divides, other])
        == "(g AND CASE WHEN g THEN CASE WHEN a THEN o ELSE false END ELSE false END)")
    #expect(
      SQLQueryCompiler.conjunction([divides, other, divides])
        == "(CASE WHEN a THEN CASE WHEN o THEN a ELSE false END ELSE false END)")
    #expect(SQLQueryCompiler.disjunction([divides, other]) == "(a OR o)")
    #expect(
      SQLQueryCompiler.disjunction([guardPart, divides])
        == "(CASE WHEN g THEN true ELSE a END)")
  }

  @Test("Int64.min % -1 fails, as in Swift; other remainders are PostgreSQL's")
  func remainderOfSmallest() throws {
    let url = try TestServer.freshURL()
    let remainder = SQLQueryCompiler.integerArithmetic(
      "'-9223372036854775808'::bigint", .remainder, "-1")
    #expect(throws: PostgreSQLError.self) { try TestServer.query("SELECT \(remainder)", at: url) }
    let fine = SQLQueryCompiler.integerArithmetic("-7", .remainder, "2")
    #expect(try TestServer.query("SELECT (\(fine))::text", at: url) == ["-1"])
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedArithmetic {
  @Test("Int8 steps fail where Swift does (Int8.min % -1 too) and give Swift's results elsewhere")
  func narrowSteps() throws {
    let url = try TestServer.freshURL()
    let values: [Int8] = [.min, -100, -7, -1, 0, 1, 2, 27, 64, 100, .max]
    let range = QueryIntegerWidth.int8.range
    var faults = 0
    for op in QueryArithmeticOperator.allCases {
      let pairs = values.flatMap { a in values.map { (a, $0) } }
      let sql = SQLQueryCompiler.integerArithmetic("v.a", op, "v.b", within: range)
      for (a, b) in pairs {
        let (value, fault) = Self.swift(a, op, b)
        do {
          let read = try TestServer.query(
            "SELECT (\(sql))::text FROM (VALUES ('\(a)'::bigint, '\(b)'::bigint)) v(a, b)",
            at: url)
          #expect(fault == nil && read == [value.map { "\($0)" }], "\(a) \(op.rawValue) \(b)")
        } catch let error as PostgreSQLError {
          faults += 1
          #expect(error.sqlState == fault, "\(a) \(op.rawValue) \(b): \(error)")
          #expect(error.arithmeticFault != nil)
        }
      }
    }
    #expect(faults > 20)
    // A NULL operand gives NULL, not a failure.
    let null = SQLQueryCompiler.integerArithmetic("NULL", .add, "'127'::bigint", within: range)
    #expect(try TestServer.query("SELECT (\(null))::text", at: url) == [nil])
  }
}
