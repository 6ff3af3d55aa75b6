import Foundation
import Testing

@testable import ModelGraph

/// A row of integers narrower than 64 bits, for arithmetic in predicates.
final class NarrowRow: PersistentModel {
  @Attribute var serial: Int
  @Attribute var i8: Int8
  @Attribute var i16: Int16
  @Attribute var i32: Int32
  @Attribute var u8: UInt8
  @Attribute var u16: UInt16
  @Attribute var u32: UInt32
  @Attribute var ratio: Float = 0.5

  /// A computed property: a predicate that reads it is left to `Predicate.evaluate`.
  var twice: Int { Int(i8) * 2 }
}

/// Arithmetic on `Int8`, `Int16`, `Int32`, `UInt8`, `UInt16` and `UInt32` in a predicate runs
/// in the engine with Swift's semantics at the declared width: a result out of the type's
/// range (and `min / -1`, `min % -1`, `-min`) is `.arithmeticOverflow`, a division or remainder
/// by zero `.divisionByZero`, where `Predicate.evaluate` would stop the process; otherwise the
/// answer is Swift's.
@Suite("Query: arithmetic on narrow integers in predicates")
struct NarrowArithmeticTests {
  let context: ModelContext

  /// Row 0 holds each type's extreme that the faulting predicates overflow; rows 1... hold
  /// values whose results stay in range for the guarded predicates.
  init() throws {
    context = try makeInMemoryContext(NarrowRow.self)
    let rows: [(Int8, Int16, Int32, UInt8, UInt16, UInt32)] = [
      (.min, 300, .max, 0, 40_000, 3_000_000_000),
      (-100, -181, -46_340, 1, 255, 65_535),
      (-7, -1, -1, 100, 256, 65_536),
      (0, 0, 0, 127, 1_000, 1),
      (1, 7, 3, 128, 65_535, 4_294_967_295),
      (63, 181, 46_340, 200, 300, 2_000_000_000),
      (100, 32_767, 2_147_483_647, 255, 0, 0),
      (.max, .min, .min, 3, 2, 7),
    ]
    for (serial, values) in rows.enumerated() {
      let row = NarrowRow()
      row.serial = serial
      (row.i8, row.i16, row.i32, row.u8, row.u16, row.u32) = values
      context.insert(row)
    }
    try context.save()
  }

  typealias Faulting = FaultingPredicate<NarrowRow>

  static let faulting: [Faulting] = [
    Faulting(
      name: "Int8 +", predicate: { #Predicate { $0.i8 + 100 > 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '+'"),
    Faulting(
      name: "Int8 -", predicate: { #Predicate { $0.i8 - 100 < 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '-'"),
    Faulting(
      name: "Int8 *", predicate: { #Predicate { $0.i8 * 2 != 1 } }, code: .arithmeticOverflow,
      message: "integer overflow in '*'"),
    Faulting(
      name: "Int8 / 0",
      predicate: {
        let zero: Int8 = 0
        return #Predicate { $0.i8 / zero > 0 }
      }, code: .divisionByZero, message: "division by zero in '/'"),
    Faulting(
      name: "Int8 % 0",
      predicate: {
        let zero: Int8 = 0
        return #Predicate { $0.i8 % zero > 0 }
      }, code: .divisionByZero, message: "division by zero in '%'"),
    Faulting(
      name: "Int8.min / -1",
      predicate: {
        let minusOne: Int8 = -1
        return #Predicate { $0.i8 / minusOne > 0 }
      }, code: .arithmeticOverflow, message: "integer overflow in '/'"),
    Faulting(
      name: "Int8.min % -1",
      predicate: {
        let minusOne: Int8 = -1
        return #Predicate { $0.i8 % minusOne == 0 }
      }, code: .arithmeticOverflow, message: "integer overflow in '%'"),
    Faulting(
      name: "-Int8.min", predicate: { #Predicate { -$0.i8 != 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '-'"),
    Faulting(
      name: "Int16 *", predicate: { #Predicate { $0.i16 * $0.i16 > 0 } },
      code: .arithmeticOverflow, message: "integer overflow in '*'"),
    Faulting(
      name: "Int32 +", predicate: { #Predicate { $0.i32 + $0.i32 != 1 } },
      code: .arithmeticOverflow, message: "integer overflow in '+'"),
    Faulting(
      name: "-Int32.min", predicate: { #Predicate { -$0.i32 != 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '-'"),
    Faulting(
      name: "nested Int8, the inner step overflowing",
      predicate: { #Predicate { ($0.i8 + 100) - 100 == $0.i8 } }, code: .arithmeticOverflow,
      message: "integer overflow in '+'"),
    Faulting(
      name: "UInt8 -", predicate: { #Predicate { $0.u8 - 1 < 10 } }, code: .arithmeticOverflow,
      message: "integer overflow in '-'"),
    Faulting(
      name: "UInt8 +", predicate: { #Predicate { $0.u8 + 200 > 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '+'"),
    Faulting(
      name: "UInt16 *", predicate: { #Predicate { $0.u16 * 2 > 0 } }, code: .arithmeticOverflow,
      message: "integer overflow in '*'"),
    Faulting(
      name: "UInt32 +", predicate: { #Predicate { $0.u32 + $0.u32 > 0 } },
      code: .arithmeticOverflow, message: "integer overflow in '+'"),
    Faulting(
      name: "UInt16 % 0", predicate: { #Predicate { $0.u16 % $0.u16 == 0 } },
      code: .divisionByZero, message: "division by zero in '%'"),
  ]

  @Test("arithmetic that Swift traps on throws the fault", arguments: faulting)
  func faults(_ faulting: Faulting) throws {
    let descriptor = FetchDescriptor<NarrowRow>(predicate: faulting.predicate())
    // Evaluated by the engine, never by `Predicate.evaluate` (which would stop the process).
    let plan = try context.explain(descriptor)
    #expect(!plan.contains("fallback"), "\(faulting.name)")
    if testsRunOnFetchedResidency, faulting.name.hasPrefix("Int") || faulting.name.hasPrefix("-") {
      // Signed arithmetic runs in the database, which fails as the engine does.
      #expect(!plan.contains("not in SQL"), "\(faulting.name): \(plan)")
      #expect(plan.contains("BETWEEN -"), "\(faulting.name): the range check in \(plan)")
    }
    let (code, message, name) = (faulting.code, faulting.message, faulting.name)
    expectFault(code, message, "\(name) fetch") { _ = try context.fetch(descriptor) }
    expectFault(code, message, "\(name) count") { _ = try context.fetchCount(descriptor) }
    expectFault(code, message, "\(name) delete") {
      try context.delete(model: NarrowRow.self, where: faulting.predicate())
    }
    #expect(!context.hasChanges, "\(name)")
  }

  /// Predicates whose arithmetic stays in range on the rows they compute on (a guard written
  /// first keeps the others out), some of them on the edge of the type's range.
  static var answering: [(String, Predicate<NarrowRow>)] {
    let k8: Int8 = 27
    let minusOne8: Int8 = -1
    let min8 = Int8.min
    let seven16: Int16 = 7
    let u8: UInt8 = 55
    let u32: UInt32 = 4_294_967_295
    let root32: Int32 = 46_340
    let lowRoot32: Int32 = -46_340
    let limit32: UInt32 = 65_536
    let near32: Int32 = 2_147_000_000
    let half32: UInt32 = 65_535
    let near32u: UInt32 = 4_294_901_000
    var cases: [(String, Predicate<NarrowRow>)] = []
    cases.append(
      ("Int8 + to the maximum", #Predicate<NarrowRow> { $0.i8 <= 100 && $0.i8 + k8 == 127 }))
    cases.append(("Int8 + captured", #Predicate<NarrowRow> { $0.i8 <= 100 && $0.i8 + k8 > 20 }))
    cases.append(
      ("Int8 - to the minimum", #Predicate<NarrowRow> { $0.i8 >= -1 && $0.i8 - 127 < -126 }))
    cases.append(
      ("Int8 * within", #Predicate<NarrowRow> { $0.i8 > -64 && $0.i8 < 64 && $0.i8 * 2 > 100 }))
    cases.append(("Int8 /", #Predicate<NarrowRow> { $0.i8 / 7 == -14 || $0.i8 / 7 == 9 }))
    cases.append(
      ("Int8 / -1 but min", #Predicate<NarrowRow> { $0.i8 != min8 && $0.i8 / minusOne8 > 50 }))
    cases.append(("Int8 %", #Predicate<NarrowRow> { $0.i8 % 7 == -2 || $0.i8 % 7 == 1 }))
    cases.append(
      ("Int8 % -1 but min", #Predicate<NarrowRow> { $0.i8 != min8 && $0.i8 % minusOne8 == 0 }))
    cases.append(("Int8 negated", #Predicate<NarrowRow> { $0.i8 != min8 && -$0.i8 < -99 }))
    cases.append(
      (
        "Int8 nested",
        #Predicate<NarrowRow> { $0.i8 > -20 && $0.i8 < 20 && ($0.i8 * 3 + 60) / 2 == 31 }
      ))
    let (low16, high16, near16): (Int16, Int16, Int16) = (-182, 182, 32_000)
    let square16 = #Predicate<NarrowRow> {
      $0.i16 > low16 && $0.i16 < high16 && ($0.i16 * $0.i16) > near16
    }
    cases.append(("Int16 * to the edge", square16))
    cases.append(
      (
        "Int16 * captured",
        #Predicate<NarrowRow> { $0.i16 > -300 && $0.i16 < 300 && $0.i16 * seven16 == 49 }
      ))
    cases.append(
      ("Int16 / and %", #Predicate<NarrowRow> { $0.i16 / 2 == 16_383 || $0.i16 % 2 == -1 }))
    let square32 = #Predicate<NarrowRow> {
      $0.i32 >= lowRoot32 && $0.i32 <= root32 && ($0.i32 * $0.i32) > near32
    }
    cases.append(("Int32 * to the edge", square32))
    cases.append(
      (
        "Int32 + and - to the edges",
        #Predicate<NarrowRow> { $0.i32 > 0 && $0.i32 - 1 + 1 == 2_147_483_647 }
      ))
    cases.append(
      ("UInt8 + to the maximum", #Predicate<NarrowRow> { $0.u8 <= 200 && $0.u8 + u8 == 255 }))
    cases.append(("UInt8 - to zero", #Predicate<NarrowRow> { $0.u8 >= 100 && $0.u8 - 100 == 0 }))
    let (top8, two8, rest8): (UInt8, UInt8, UInt8) = (255, 2, 55)
    let divided8 = #Predicate<NarrowRow> {
      $0.u8 != 0 && top8 / $0.u8 == two8 && top8 % $0.u8 == rest8
    }
    cases.append(("UInt8 / and %", divided8))
    cases.append(("UInt16 *", #Predicate<NarrowRow> { $0.u16 < 256 && $0.u16 * 256 == 65_280 }))
    cases.append(("UInt32 -", #Predicate<NarrowRow> { u32 - $0.u32 < 10 }))
    let top32 = #Predicate<NarrowRow> {
      $0.u32 <= limit32 && ($0.u32 * half32) + half32 > near32u
    }
    cases.append(("UInt32 + to the maximum", top32))
    return cases
  }

  @Test("arithmetic that stays in range gives Swift's answer")
  func answersAsSwift() throws {
    let all = try context.fetch(FetchDescriptor<NarrowRow>(sortBy: [SortDescriptor(\.serial)]))
    var matched = 0
    for (name, predicate) in Self.answering {
      let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.serial)])
      #expect(try !context.explain(descriptor).contains("fallback"), "\(name)")
      let expected = try all.filter { try predicate.evaluate($0) }.map(\.serial)
      #expect(try context.fetch(descriptor).map(\.serial) == expected, "\(name)")
      #expect(try context.fetchCount(descriptor) == expected.count, "\(name)")
      matched += expected.count
    }
    // Not vacuous: most predicates match some row.
    #expect(matched >= Self.answering.count)
  }
}
