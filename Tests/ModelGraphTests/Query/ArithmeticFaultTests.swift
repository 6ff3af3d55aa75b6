import Foundation
import Testing

@testable import ModelGraph

/// A row of numbers for arithmetic in predicates, with an ordered index on `serial`.
final class ArithmeticRow: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var n: Int
  @Attribute var d: Int
  @Attribute var u: UInt
  @Attribute var amount: Decimal
  @Attribute var label: String
  @Attribute var tag: String

  class var indexes: [ModelIndex] { [.ordered(\ArithmeticRow.serial)] }
}

/// Arithmetic in a predicate that overflows or divides by zero on a row the fetch tests is a
/// `ModelError` naming the operator, never a `nil` that a comparison quietly takes (nor the
/// trap of `Predicate.evaluate`); rows the plan does not test do not fault.
@Suite("Query: arithmetic faults in predicates")
struct ArithmeticFaultTests {
  let context: ModelContext

  /// Rows 0...9 hold small numbers (`d` is 0 on every third); row 10 holds `Int.max`, a zero
  /// divisor, a zero `UInt` and a `Decimal` whose square is out of range.
  init() throws {
    context = try makeInMemoryContext(ArithmeticRow.self)
    for serial in 0...10 {
      let row = ArithmeticRow()
      row.serial = serial
      row.n = serial == 10 ? Int.max : serial
      row.d = serial == 10 ? 0 : serial % 3
      row.u = serial == 10 ? 0 : UInt(serial + 1)
      row.amount = serial == 10 ? Decimal(string: "1e120")! : Decimal(serial)
      // Only rows with a non-zero divisor have a label that starts with their tag.
      row.tag = "ok"
      row.label = row.d == 0 ? "skip" : "ok-\(serial)"
      context.insert(row)
    }
    try context.save()
  }

  typealias Faulting = FaultingPredicate<ArithmeticRow>

  static let faulting: [Faulting] = [
    Faulting(
      name: "Int +", predicate: { #Predicate { $0.n + 1 != 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '+'"),
    Faulting(
      name: "Int -", predicate: { #Predicate { -2 - $0.n < 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '-'"),
    Faulting(
      name: "Int *", predicate: { #Predicate { $0.n * 2 > 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '*'"),
    Faulting(
      name: "Int /", predicate: { #Predicate { $0.n / $0.d > 3 } }, code: .divisionByZero,
      message: "division by zero in '/'"),
    Faulting(
      name: "Int %", predicate: { #Predicate { $0.n % $0.d == 0 } }, code: .divisionByZero,
      message: "division by zero in '%'"),
    Faulting(
      name: "Int.min / -1",
      predicate: {
        let small = Int.min
        return #Predicate { (small + $0.serial) / -1 > 0 }
      }, code: .arithmeticOverflow, message: "integer overflow in '/'"),
    Faulting(
      name: "unary minus of Int.min",
      predicate: {
        let small = Int.min
        return #Predicate { -(small + $0.serial) > 0 }
      }, code: .arithmeticOverflow, message: "integer overflow in '-'"),
    Faulting(
      name: "UInt -",
      predicate: {
        let one: UInt = 1
        return #Predicate { $0.u - one >= 0 }
      }, code: .arithmeticOverflow, message: "integer overflow in '-'"),
    Faulting(
      name: "Decimal *", predicate: { #Predicate { $0.amount * $0.amount > 0 } },
      code: .arithmeticOverflow, message: "the Decimal result of '*' is out of range"),
  ]

  @Test("every entry point throws the fault and changes nothing", arguments: faulting)
  func everyEntryPoint(_ faulting: Faulting) throws {
    let descriptor = FetchDescriptor<ArithmeticRow>(predicate: faulting.predicate())
    // Evaluated by the engine, never by `Predicate.evaluate` (which would stop the process).
    #expect(try !context.explain(descriptor).contains("fallback"), "\(faulting.name)")
    let (code, message, name) = (faulting.code, faulting.message, faulting.name)
    expectFault(code, message, "\(name) fetch") { _ = try context.fetch(descriptor) }
    expectFault(code, message, "\(name) count") { _ = try context.fetchCount(descriptor) }
    expectFault(code, message, "\(name) identifiers") {
      _ = try context.fetchIdentifiers(descriptor)
    }
    expectFault(code, message, "\(name) batches") {
      _ = try context.fetch(descriptor, batchSize: 3)
    }
    expectFault(code, message, "\(name) enumerate") {
      try context.enumerate(descriptor) { _ in }
    }
    var sorted = descriptor
    sorted.sortBy = [SortDescriptor(\.serial, order: .reverse)]
    sorted.fetchLimit = 20
    expectFault(code, message, "\(name) sorted") { _ = try context.fetch(sorted) }
    expectFault(code, message, "\(name) delete") {
      try context.delete(model: ArithmeticRow.self, where: faulting.predicate())
    }
    #expect(!context.hasChanges, "\(name)")
    #expect(try context.fetchCount(FetchDescriptor<ArithmeticRow>()) == 11, "\(name)")
  }

  @Test("a cached plan faults with one value and not with the next")
  func cachedPlanWithOtherValues() throws {
    func descriptor(_ step: Int) -> FetchDescriptor<ArithmeticRow> {
      FetchDescriptor(predicate: #Predicate { $0.n + step > 0 })
    }
    #expect(try context.fetchCount(descriptor(0)) == 10)
    // Arithmetic is translated every time, and its plan reused from the plan cache.
    if !testsRunOnFetchedResidency {
      #expect(try context.explain(descriptor(1)).contains("reused from the cache"))
    }
    expectFault(.arithmeticOverflow, "integer overflow in '+'", "step 1") {
      _ = try context.fetch(descriptor(1))
    }
    // The fault of the run before is not left behind for the next.
    #expect(try context.fetch(descriptor(0)).count == 10)
    #expect(try context.fetchCount(descriptor(-1)) == 9)
    expectFault(.arithmeticOverflow, "integer overflow in '+'", "step 1 again") {
      _ = try context.fetchCount(descriptor(1))
    }
    #expect(try context.fetchIdentifiers(descriptor(-1)).count == 9)
  }

  @Test("rows an index leaves out are not computed on")
  func indexSkipsFaultingRow() throws {
    let descriptor = FetchDescriptor<ArithmeticRow>(
      predicate: #Predicate { $0.serial < 10 && $0.n + 1 > 0 }, sortBy: [SortDescriptor(\.serial)])
    if !testsRunOnFetchedResidency {
      #expect(try context.explain(descriptor).contains("ordered(serial)"))
    }
    #expect(try context.fetch(descriptor).map(\.serial) == Array(0..<10))
    #expect(try context.fetchCount(descriptor) == 10)
  }

  @Test("a guard written first keeps the rows it excludes from faulting, as && and || do")
  func guardsWrittenFirst() throws {
    // A guard that costs more than the division is still tested first.
    let costly = #Predicate<ArithmeticRow> { $0.label.starts(with: $0.tag) && $0.n / $0.d >= 0 }
    let cheap = #Predicate<ArithmeticRow> { $0.d != 0 && $0.n / $0.d >= 0 }
    let either = #Predicate<ArithmeticRow> { $0.d == 0 || $0.n / $0.d >= 0 }
    let expected = [1, 2, 4, 5, 7, 8]
    for (name, predicate) in [("costly", costly), ("cheap", cheap)] {
      let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.serial)])
      #expect(try context.fetch(descriptor).map(\.serial) == expected, "\(name)")
      #expect(try context.fetchCount(descriptor) == expected.count, "\(name)")
    }
    #expect(try context.fetchCount(FetchDescriptor(predicate: either)) == 11)
    // Written after the division, the guard does not keep it from faulting.
    let late = #Predicate<ArithmeticRow> { $0.n / $0.d >= 0 && $0.d != 0 }
    expectFault(.divisionByZero, "division by zero in '/'", "late guard") {
      _ = try context.fetch(FetchDescriptor(predicate: late))
    }
  }

  @Test("a fetch that leaves out unsaved objects does not compute on them")
  func unsavedObjectsLeftOut() throws {
    let row = ArithmeticRow()
    row.serial = 11
    row.n = Int.max
    row.d = 0
    row.u = 1
    row.amount = 1
    row.label = ""
    row.tag = ""
    context.insert(row)
    // Only the unsaved object faults.
    var descriptor = FetchDescriptor<ArithmeticRow>(
      predicate: #Predicate { $0.serial != 10 && $0.n + 1 > 0 })
    descriptor.includePendingChanges = false
    #expect(try context.fetchCount(descriptor) == 10)
    #expect(try context.fetch(descriptor).count == 10)
    descriptor.includePendingChanges = true
    expectFault(.arithmeticOverflow, "integer overflow in '+'", "with the unsaved object") {
      _ = try context.fetchCount(descriptor)
    }
    context.rollback()
  }
}
