import Foundation
import ModelGraph
import Testing

/// A note with an indexed string and an optional one.
final class EdgeNote: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var text: String
  @Attribute var extra: String?

  static var indexes: [ModelIndex] { [.ordered(\EdgeNote.text)] }
}

/// String predicates and sorts on strings at the edges of Unicode (canonically equivalent
/// spellings, `\r\n` as one character, case folds that change length, emoji with modifiers,
/// NUL, a long string), each compared with Foundation's `Predicate.evaluate` on the same objects.
@Suite("Edge strings against Predicate.evaluate")
struct EdgeStringPredicateTests {
  static let texts = [
    "", "e\u{301}", "\u{e9}", "\u{c9}", "E\u{301}", "ß", "SS", "ss", "\u{fb00}", "ff", "\u{130}",
    "i",
    "\u{131}", "I", "\r\n", "\r", "\n", "a\r\nb", "a\rb", String(repeating: "a", count: 10_000),
    "\u{1F600}", "\u{1F44D}\u{1F3FD}", "\u{2126}", "\u{3a9}", "\u{212a}", "K", "A\u{0}B", "a",
    "caf\u{e9}", "cafe\u{301}", "CAF\u{c9}", "\u{1F44D}",
  ]
  static let needles = [
    "", "e", "\u{e9}", "e\u{301}", "\u{301}", "E", "ss", "SS", "\u{df}", "\r", "\n", "\r\n", "i",
    "I", "ff", "\u{3a9}", "a", "\u{0}", "caf\u{e9}", "\u{1F44D}", "K",
  ]

  static func make() throws -> (ModelContext, [EdgeNote]) {
    let container = try ModelContainer(
      for: EdgeNote.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    var notes: [EdgeNote] = []
    for (serial, text) in texts.enumerated() {
      let note = EdgeNote()
      note.serial = serial
      note.text = text
      note.extra = serial % 4 == 0 ? nil : texts[(serial * 7) % texts.count]
      context.insert(note)
      notes.append(note)
    }
    try context.save()
    return (context, notes)
  }

  @Test("every string predicate selects what Predicate.evaluate selects")
  func predicates() throws {
    let (context, notes) = try Self.make()
    let same = ComparisonResult.orderedSame
    for needle in Self.needles {
      let predicates: [(String, Predicate<EdgeNote>)] = [
        ("==", #Predicate { $0.text == needle }),
        ("!=", #Predicate { $0.text != needle }),
        ("<", #Predicate { $0.text < needle }),
        (">=", #Predicate { $0.text >= needle }),
        ("starts(with:)", #Predicate { $0.text.starts(with: needle) }),
        ("contains", #Predicate { $0.text.contains(needle) }),
        ("localizedStandardContains", #Predicate { $0.text.localizedStandardContains(needle) }),
        ("caseInsensitiveCompare", #Predicate { $0.text.caseInsensitiveCompare(needle) == same }),
        ("optional ==", #Predicate { $0.extra == needle }),
        ("optional contains", #Predicate { $0.extra?.contains(needle) ?? false }),
        ("count", #Predicate { $0.text.count == needle.count }),
      ]
      for (name, predicate) in predicates {
        let expected = try notes.filter { try predicate.evaluate($0) }.map(\.serial).sorted()
        let found = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.serial).sorted()
        #expect(
          found == expected, "\(name) \(needle.unicodeScalars.map { String($0.value, radix: 16) })")
      }
    }
  }

  @Test("sorts by a string agree with Swift's order of the strings")
  func sorts() throws {
    let (context, notes) = try Self.make()
    for order in [SortOrder.forward, .reverse] {
      let sorted = try context.fetch(
        FetchDescriptor<EdgeNote>(sortBy: [
          SortDescriptor(\.text, order: order), SortDescriptor(\.serial),
        ]))
      let expected = notes.sorted {
        if $0.text != $1.text { return order == .forward ? $0.text < $1.text : $1.text < $0.text }
        return $0.serial < $1.serial
      }
      #expect(sorted.map(\.serial) == expected.map(\.serial), "\(order)")
      var window = FetchDescriptor<EdgeNote>(
        sortBy: [SortDescriptor(\.text, order: order), SortDescriptor(\.serial)])
      window.fetchLimit = 7
      window.fetchOffset = 3
      #expect(try context.fetch(window).map(\.serial) == Array(expected.map(\.serial)[3..<10]))
    }
  }
}
