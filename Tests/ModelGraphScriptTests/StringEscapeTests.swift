import Foundation
import Testing

@testable import ModelGraphScript

/// A runner string is read scalar by scalar: a combining mark right after a quote or an escape
/// joins that quote into one `Character`, so `.dump` wrote strings (imported from JSON) that
/// the runner could not read back (`unexpected character`, `unknown escape`). Strings also take
/// `\u{…}` escapes, and a dump writes control characters with them.
@Suite("String literals and escapes in the runner")
struct StringEscapeTests {
  /// The `name` of each `T` the script's store holds, in the order of `n`.
  private func names(after script: String) throws -> [String] {
    let result = InProcess.run(script + "\n.mode json\nfetch T sort n", path: "s")
    #expect(result.stderr == "")
    #expect(result.exit == 0)
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    return try rows.map { try #require($0["name"] as? String) }
  }

  /// `text` as a literal that spells every scalar as a `\u{…}` escape.
  private func escaped(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { "\\u{" + String($0.value, radix: 16) + "}" }.joined() + "\""
  }

  /// Strings a naive reader splits wrongly: combining marks after a quote or a backslash, a
  /// prepended mark before the closing quote, controls, line separators, an emoji sequence.
  private let awkward = [
    "\u{301}abc", "x\"\u{301}y", "e\u{301}", "\\\u{301}", "'\u{301}", "\u{600}", "a\u{600}",
    "\u{7}\u{0}\u{1B}[0m", "\r\n", "a\u{2028}b\u{85}c", "\u{200D}", "👨‍👩‍👧 🇵🇹", "",
  ]

  @Test("\\u{…} writes any Unicode scalar, with 1 to 8 hex digits")
  func unicodeEscape() throws {
    let stored = try names(
      after: """
        entity T { n: Int; name: String }
        insert T { n: 0, name: "\\u{301}a\\u{1F600}\\u{0}\\u{00000041}" }
        insert T { n: 1, name: 'it\\u{2019}s' }
        """)
    #expect(
      stored.map { Array($0.unicodeScalars) } == [
        Array("\u{301}a\u{1F600}\u{0}A".unicodeScalars), Array("it\u{2019}s".unicodeScalars),
      ])
  }

  @Test("a malformed \\u escape is refused, saying what is wrong")
  func malformedEscape() {
    for (literal, message) in [
      (#""\u0301""#, "a \\u escape is written \\u{301}: 1 to 8 hex digits in braces"),
      (#""\u{}""#, "a \\u escape is written \\u{301}: 1 to 8 hex digits in braces"),
      (#""\u{12x}""#, "a \\u escape is written \\u{301}: 1 to 8 hex digits in braces"),
      (#""\u{123456789}""#, "a \\u escape is written \\u{301}: 1 to 8 hex digits in braces"),
      (#""\u{D800}""#, "\\u{D800} is not a Unicode scalar (a surrogate, or past 10FFFF)"),
      (#""\u{110000}""#, "\\u{110000} is not a Unicode scalar (a surrogate, or past 10FFFF)"),
    ] {
      let result = InProcess.run(
        "entity T { name: String }\ninsert T { name: \(literal) }", path: "s")
      #expect(result.exit == 1)
      #expect(result.stderr.contains("s:2:18: error: \(message)"), "\(literal): \(result.stderr)")
    }
  }

  @Test("marks typed right after a quote or an escape belong to the string")
  func joinedMarks() throws {
    let stored = try names(
      after: """
        entity T { n: Int; name: String }
        insert T { n: 0, name: "\u{301}abc" }
        insert T { n: 1, name: "x\\"\u{301}y" }
        insert T { n: 2, name: 'a\u{600}' }
        """)
    #expect(
      stored.map { Array($0.unicodeScalars) } == [
        Array("\u{301}abc".unicodeScalars), Array("x\"\u{301}y".unicodeScalars),
        Array("a\u{600}".unicodeScalars),
      ])
  }

  @Test("a mark joined to the closing quote is refused, naming it")
  func markAfterClosingQuote() {
    let result = InProcess.run(
      "entity T { name: String }\ninsert T { name: \"abc\"\u{301} }", path: "s")
    #expect(result.exit == 1)
    #expect(
      result.stderr.contains(
        "s:2:18: error: U+0301 is joined to the string's closing quote; write it inside the "
          + "string as \\u{301}"), "\(result.stderr)")
  }

  @Test("a dump writes every string so that it reads back scalar for scalar")
  func dumpRoundTrip() throws {
    let script =
      "entity T { n: Int; name: String }\n"
      + awkward.enumerated().map { "insert T { n: \($0), name: \(escaped($1)) }" }.joined(
        separator: "\n") + "\nsave"
    let first = InProcess.run(script + "\n.dump", path: "s")
    #expect(first.stderr == "")
    let start = try #require(first.stdout.range(of: "-- modelgraph .dump")).lowerBound
    let dump = String(first.stdout[start...])
    #expect(
      !dump.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    #expect(!dump.contains("\u{2028}"))
    let stored = try names(after: dump)
    #expect(stored.map { Array($0.unicodeScalars) } == awkward.map { Array($0.unicodeScalars) })
    let again = InProcess.run(dump + "\n.dump", path: "d")
    let second = try #require(again.stdout.range(of: "-- modelgraph .dump")).lowerBound
    #expect(String(again.stdout[second...]) == dump)
  }
}
