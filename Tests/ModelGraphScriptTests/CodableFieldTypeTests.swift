import Foundation
import ModelGraph
import Testing

@testable import ModelGraphScript

/// A Codable value with integer and `Decimal` fields.
private struct Ledger: CompositeValue, Equatable {
  var id: Int
  var amount: Decimal
  var parts: [Int]
}

private final class Entry: PersistentModel {
  @Attribute var name: String
  @Attribute var ledger: Ledger
}

/// The runner read every number of a Codable value's field as a `Double`, so an `Int` field past
/// 2^53 or a `Decimal` field's digits compared inexactly (`ledger.id == 9007199254740993` found
/// 9007199254740992), and an `Int` field divided as a `Double`. A field the file's schema
/// declares now reads as its Swift type.
@Suite("Codable fields read as the Swift type declares them")
struct CodableFieldTypeTests {
  @Test("integer and Decimal fields compare exactly and compute as their Swift types")
  func exactFields() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-field-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("entries.mgs")
    do {
      let container = try ModelContainer(
        for: Entry.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      for (name, id, amount) in [
        ("a", 9_007_199_254_740_992, "0.1000000000000000000001"),
        ("b", 9_007_199_254_740_993, "0.1"),
        ("c", 7, "12345678901234567890.123456789"),
      ] {
        let entry = Entry()
        entry.name = name
        entry.ledger = Ledger(
          id: id, amount: Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))!,
          parts: [id, 1])
        context.insert(entry)
      }
      try context.save()
    }
    let result = InProcess.run(
      """
      open "\(url.path)"
      count Entry where ledger.id == 9007199254740993
      count Entry where ledger.id > 9007199254740992
      count Entry where ledger.amount == 0.1
      count Entry where ledger.amount > 0.1
      count Entry where ledger.amount == 12345678901234567890.123456789
      fetch Entry.name, ledger.id / 2 where ledger.id == 7
      """, path: "q")
    #expect(result.stderr == "")
    // Each line's words: the counts, then the projection's header, rule, row and row count.
    let lines = result.stdout.split(separator: "\n").map {
      $0.split(separator: " ").joined(separator: " ")
    }
    #expect(lines.prefix(5) == ["1", "1", "1", "2", "1"], "\(result.stdout)")
    #expect(lines.dropFirst(5).dropFirst(2).first == "c 3", "\(result.stdout)")
  }
}
