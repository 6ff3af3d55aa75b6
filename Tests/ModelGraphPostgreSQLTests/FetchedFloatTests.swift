import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// `Double` comparisons, whose SQL also rules out `NaN`, nested inside each other.
  @Suite("Nested floating-point comparisons") struct FetchedFloat {
    /// `inner op other ? then : otherwise` for an ordering `op`.
    static func ordered(
      _ inner: some StandardPredicateExpression<Double>,
      _ op: PredicateExpressions.ComparisonOperator,
      _ other: some StandardPredicateExpression<Double>,
      _ then: some StandardPredicateExpression<Double>,
      _ otherwise: some StandardPredicateExpression<Double>
    ) -> some StandardPredicateExpression<Double> {
      PredicateExpressions.build_Conditional(
        PredicateExpressions.build_Comparison(lhs: inner, rhs: other, op: op), then, otherwise)
    }

    /// `inner == other ? then : otherwise`.
    static func equal(
      _ inner: some StandardPredicateExpression<Double>,
      _ other: some StandardPredicateExpression<Double>,
      _ then: some StandardPredicateExpression<Double>,
      _ otherwise: some StandardPredicateExpression<Double>
    ) -> some StandardPredicateExpression<Double> {
      PredicateExpressions.build_Conditional(
        PredicateExpressions.build_Equal(lhs: inner, rhs: other), then, otherwise)
    }

    /// `inner != other ? then : otherwise`.
    static func notEqual(
      _ inner: some StandardPredicateExpression<Double>,
      _ other: some StandardPredicateExpression<Double>,
      _ then: some StandardPredicateExpression<Double>,
      _ otherwise: some StandardPredicateExpression<Double>
    ) -> some StandardPredicateExpression<Double> {
      PredicateExpressions.build_Conditional(
        PredicateExpressions.build_NotEqual(lhs: inner, rhs: other), then, otherwise)
    }

    @Test("12 nested comparisons compile to SQL of linear size, with full mode's objects")
    func nested() throws {
      let url = try TestServer.freshURL()
      // Ratings 0 to 2.5 by halves, some NaN.
      try PostgreSQLStoreSuites.FetchedResidency.seed(url, members: 40)
      // Each level compares the one inside it (with <, >=, ==, !=, >, <=, twice), and takes a
      // rating (NaN on some rows) or a constant on. Built a level at a time: as one
      // #Predicate literal it is too much for the type checker.
      let predicate = Predicate<Member> { member in
        let rating = PredicateExpressions.build_KeyPath(root: member, keyPath: \.rating)
        let (low, half, one, high) = (
          PredicateExpressions.build_Arg(0.25), PredicateExpressions.build_Arg(0.5),
          PredicateExpressions.build_Arg(1.0), PredicateExpressions.build_Arg(1.75)
        )
        let level1 = Self.ordered(rating, .lessThan, one, rating, high)
        let level2 = Self.ordered(level1, .greaterThanOrEqual, half, low, rating)
        let level3 = Self.equal(level2, low, rating, high)
        let level4 = Self.notEqual(level3, half, low, rating)
        let level5 = Self.ordered(level4, .greaterThan, one, rating, high)
        let level6 = Self.ordered(level5, .lessThanOrEqual, half, low, rating)
        let level7 = Self.ordered(level6, .lessThan, one, rating, high)
        let level8 = Self.ordered(level7, .greaterThanOrEqual, half, low, rating)
        // Two operands that are not short: both named once.
        let level9 = Self.equal(
          level8, Self.ordered(rating, .lessThan, one, low, rating), rating, high)
        let level10 = Self.notEqual(level9, half, low, rating)
        let level11 = Self.ordered(level10, .greaterThan, one, rating, high)
        let level12 = Self.ordered(level11, .lessThanOrEqual, half, low, rating)
        return PredicateExpressions.build_Comparison(lhs: level12, rhs: low, op: .greaterThan)
      }
      let nested = FetchDescriptor<Member>(
        predicate: predicate, sortBy: [SortDescriptor(\.name), SortDescriptor(\.score)])
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let expected = try full.fetch(nested).map(\.persistentModelID)
      #expect(!expected.isEmpty)
      #expect(expected.count < 40)
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      let explained = try partial.explain(nested)
      #expect(!explained.contains("not in SQL"))
      let sql = try #require(explained.split(separator: "\n").first { $0.hasPrefix("sql: ") })
      // Member and Captain, 12 levels each: a bounded number of characters per level (a
      // level read its operand 2 to 3 times before, 2^12 copies of the innermost one).
      #expect(sql.utf8.count < 2 * 12 * 400, "\(sql.utf8.count) characters")
      #expect(try partial.fetchCount(nested) == expected.count)
      #expect(try partial.fetch(nested).map(\.persistentModelID) == expected)
    }
  }
}
