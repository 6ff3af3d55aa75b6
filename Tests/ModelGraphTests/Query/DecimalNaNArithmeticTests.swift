import Foundation
import Testing

@testable import ModelGraph

/// Arithmetic on a `Decimal` NaN gives NaN, as Foundation computes it (without stopping the
/// process), and NaN then compares as Foundation's `Decimal` does: before every number, and
/// equal to NaN. A fetch agrees with `Predicate.evaluate` on the same objects.
@Suite("Query: arithmetic on a Decimal NaN")
struct DecimalNaNArithmeticTests {
  @Test("a fetch agrees with Predicate.evaluate on NaN results")
  func agreesWithFoundation() throws {
    let context = try makeInMemoryContext(ArithmeticRow.self)
    for (serial, amount) in [Decimal.nan, 1, 10, -3].enumerated() {
      let row = ArithmeticRow()
      (row.serial, row.n, row.d, row.u, row.amount) = (serial, 0, 1, 0, amount)
      (row.label, row.tag) = ("", "")
      context.insert(row)
    }
    try context.save()
    let all = try context.fetch(FetchDescriptor<ArithmeticRow>(sortBy: [SortDescriptor(\.serial)]))
    let one = Decimal(1)
    let five = Decimal(5)
    let nan = Decimal.nan
    var cases: [(String, Predicate<ArithmeticRow>)] = []
    cases.append(("NaN + 1 < 5", #Predicate { $0.amount + one < five }))
    cases.append(("NaN - 1 > 5", #Predicate { $0.amount - one > five }))
    cases.append(("NaN * NaN == NaN", #Predicate { $0.amount * $0.amount == nan }))
    cases.append(("1 + NaN <= 5", #Predicate { one + $0.amount <= five }))
    cases.append(("-NaN < 0", #Predicate { -$0.amount < 0 }))
    cases.append(("NaN captured", #Predicate { $0.amount + nan < $0.amount }))
    for (name, predicate) in cases {
      let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.serial)])
      #expect(try !context.explain(descriptor).contains("fallback"), "\(name)")
      let expected = try all.filter { try predicate.evaluate($0) }.map(\.serial)
      #expect(try context.fetch(descriptor).map(\.serial) == expected, "\(name)")
      #expect(try context.fetchCount(descriptor) == expected.count, "\(name)")
    }
    // Not vacuous: the NaN object matches `+ 1 < 5`, as Foundation says.
    let sum = FetchDescriptor(predicate: cases[0].1, sortBy: [SortDescriptor(\.serial)])
    #expect(try context.fetch(sum).map(\.serial) == [0, 1, 3])
  }
}
