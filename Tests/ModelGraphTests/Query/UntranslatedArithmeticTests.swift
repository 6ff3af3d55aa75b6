import Foundation
import Testing

@testable import ModelGraph

/// Integer arithmetic inside a part of a predicate the engine does not evaluate would be
/// computed by `Predicate.evaluate`, which stops the process where it overflows: such a
/// predicate is refused before it runs, with a `ModelError` naming the part. Predicates whose
/// untranslated parts compute nothing that can trap (a negative literal, `Float` arithmetic)
/// still run, with Foundation's answer.
@Suite("Query: arithmetic in parts left to Predicate.evaluate")
struct UntranslatedArithmeticTests {
  let context: ModelContext
  let all: [NarrowRow]

  init() throws {
    context = try makeInMemoryContext(NarrowRow.self)
    for (serial, value) in [Int8.min, -7, 0, 1, 100, .max].enumerated() {
      let row = NarrowRow()
      row.serial = serial
      row.i8 = value
      (row.i16, row.i32, row.u8, row.u16, row.u32) = (0, 0, 0, 0, 0)
      row.ratio = Float(serial) / 4
      context.insert(row)
    }
    try context.save()
    all = try context.fetch(FetchDescriptor<NarrowRow>(sortBy: [SortDescriptor(\.serial)]))
  }

  static var refused: [(String, Predicate<NarrowRow>)] {
    let big = Int.max
    let small = Int.min
    var cases: [(String, Predicate<NarrowRow>)] = []
    cases.append(("a computed property times a large number", #Predicate { $0.twice * big > 0 }))
    cases.append(
      (
        "a computed property in || with arithmetic",
        #Predicate { $0.twice == 3 || $0.serial * big > 0 }
      ))
    cases.append(("a computed property negated", #Predicate { -($0.twice + small) > 0 }))
    cases.append(
      ("a computed property divided", #Predicate { $0.serial >= 0 && 100 / $0.twice > 0 }))
    // A range whose lower bound is above its upper one stops the process where it is built.
    cases.append(
      (
        "a computed property in || with a range of a stored bound",
        #Predicate { $0.twice == 3 || ($0.serial...2).contains(1) }
      ))
    cases.append(
      (
        "a computed property in || with a half-open range",
        #Predicate { $0.twice == 3 || (0..<$0.serial).contains(1) }
      ))
    return cases
  }

  @Test("integer arithmetic in an untranslated part is refused before it runs")
  func refusesTrappingArithmetic() throws {
    for (name, predicate) in Self.refused {
      let descriptor = FetchDescriptor(predicate: predicate)
      for (entry, run) in [
        ("fetch", { _ = try context.fetch(descriptor) }),
        ("count", { _ = try context.fetchCount(descriptor) }),
        ("delete", { try context.delete(model: NarrowRow.self, where: predicate) }),
      ] as [(String, () throws -> Void)] {
        do {
          try run()
          Issue.record("\(name) \(entry): no error")
        } catch let error as ModelError {
          #expect(error.code == .unsupportedPredicate, "\(name) \(entry): \(error)")
          // The part, written out (a computed property's name cannot be read).
          #expect(
            error.message.contains("computed or @Transient Int property"),
            "\(name) \(entry): \(error.message)")
          #expect(error.message.contains("Predicate.evaluate"), "\(name): \(error.message)")
        }
      }
      #expect(!context.hasChanges)
    }
  }

  static var answered: [(String, Predicate<NarrowRow>)] {
    let quarter: Float = 0.25
    var cases: [(String, Predicate<NarrowRow>)] = []
    cases.append(("a computed property", #Predicate { $0.twice > 100 }))
    cases.append(("a computed property against a negative literal", #Predicate { $0.twice == -14 }))
    cases.append(
      ("arithmetic in a conjunct of its own", #Predicate { $0.serial * 2 > 2 && $0.twice >= 0 }))
    cases.append(
      (
        "arithmetic after a computed property's conjunct",
        #Predicate { $0.twice >= 0 && $0.i8 != 127 && $0.i8 + 1 > 1 }
      ))
    cases.append(("Float arithmetic", #Predicate { $0.ratio * quarter > 0.1 }))
    cases.append(
      (
        "a computed property in || with a range of constants",
        #Predicate { $0.twice == 3 || (0...2).contains($0.serial) }
      ))
    cases.append(
      (
        "Float arithmetic with a computed property",
        #Predicate { $0.twice < 0 || $0.ratio / quarter > 3 }
      ))
    return cases
  }

  @Test("untranslated parts that cannot trap still run, with Foundation's answer")
  func answersTheRest() throws {
    var matched = 0
    for (name, predicate) in Self.answered {
      let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.serial)])
      #expect(try context.explain(descriptor).contains("fallback"), "\(name)")
      let expected = try all.filter { try predicate.evaluate($0) }.map(\.serial)
      #expect(try context.fetch(descriptor).map(\.serial) == expected, "\(name)")
      #expect(try context.fetchCount(descriptor) == expected.count, "\(name)")
      matched += expected.count
    }
    #expect(matched >= Self.answered.count)
  }
}
