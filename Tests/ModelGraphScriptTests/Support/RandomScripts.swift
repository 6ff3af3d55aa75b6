import ModelGraphScript

/// Makes scripts a runner should survive: token soup from the language's vocabulary, statements
/// with random expressions, and damaged copies of real scripts.
struct RandomScripts {
  var random: SeededGenerator

  /// A schema and a few saved objects, so random statements meet real classes and data.
  static let prelude = """
    entity Trip {
      name: String unique
      startDate: Date index
      budget: Double = 0
      price: Decimal?
      nights: Int?
      tags: [String] = []
      accommodations: [Accommodation] inverse trip delete cascade
    }
    entity BusinessTrip : Trip { company: String index }
    entity PersonalTrip : Trip { reason: String; id: UUID? }
    entity Accommodation { name: String; pricePerNight: Int; trip: Trip?; unique(name, pricePerNight) }
    let $lisbon = insert Trip { name: "Lisbon", startDate: 2026-04-02, budget: 900, price: 12.5, nights: 4 }
    insert BusinessTrip { name: "Berlin", startDate: 2026-03-10, budget: 1500, company: "Acme" }
    let $rome = insert PersonalTrip { name: "Rome", startDate: 2026-07-20, reason: "vacation", tags: ["a", "b"] }
    insert Accommodation { name: "Flat", pricePerNight: 95, trip: $rome }
    save

    """

  static let keywords = [
    "entity", "insert", "let", "update", "set", "where", "delete", "fetch", "only", "sort", "by",
    "asc", "desc", "limit", "offset", "prefetch", "count", "sum", "min", "max", "avg", "class",
    "save", "rollback", "begin", "commit", "unique", "index", "preserve", "inverse", "cascade",
    "nullify", "deny", "noAction", "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH",
    "CONTAINS", "LIKE", "MATCHES", "ANY", "ALL", "NONE", "SOME", "IS", "AS", "ONLY", "SUBQUERY",
    "self", "nil", "true", "false", "YES", "TRUEPREDICATE",
  ]

  static let names = [
    "Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "Nowhere", "name", "startDate",
    "budget", "price", "nights", "tags", "accommodations", "company", "reason", "id", "trip",
    "pricePerNight", "Int", "String", "Date", "Double", "Decimal", "Bool", "UUID", "URL", "Data",
    "UInt", "x",
  ]

  static let literals = [
    "0", "1", "42", "9223372036854775807", "9223372036854775808", "99999999999999999999", "1.5",
    "0.1", "1e308", "1e999", "1e-400", "2.5e-300", "\"x\"", "\"Lisbon\"", "''", "\"a\\\"b\"",
    "\"unterminated", "'single'", "2026-04-02", "2026-02-30", "2026-04-02T09:30:00Z",
    "2026-04-02T25:00", "2026-04-02T09:30:00.250+02:00", "0000-01-01", "9999-12-31",
    "\"2026-01-01\"", "\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"", "\"http://x\"", "$lisbon",
    "$rome", "$nobody", "$", "\"*a?\"", "\"(a+)+$\"", "\"[\"", "{1, 2}", "[]", "{}",
  ]

  static let punctuation = [
    "{", "}", "(", ")", "[", "]", ",", ":", ";", ".", "=", "==", "!=", "<>", "<", "<=", ">", ">=",
    "+", "-", "*", "/", "%", "?", "@", "!", "&&", "||", "[c]", "[cd]", "[d]", "[x]", "\n", "\n",
    "-- a comment\n", ".@count", ".schema", ".explain", ".mode json", ".mode csv", ".mode table",
    ".stats", ".timing on", ".help", ".nope",
  ]

  static let oddText = [
    "\r\n", "\r", "\t", "\u{FFFD}", "é", "e\u{301}", "🏝", "\u{0}", "\u{200B}", "\u{202E}", "#",
    "`", "\\", "~", "^", "&", "|", "$1", "_", "٣",
  ]

  init(seed: UInt64) {
    random = SeededGenerator(seed: seed)
  }

  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }

  mutating func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  /// Words and symbols of the language in random order, sometimes after the prelude.
  mutating func tokenSoup() -> String {
    var text = chance(60) ? Self.prelude : ""
    for _ in 0..<number(1...60) {
      let token: String
      switch number(0...9) {
      case 0...2: token = pick(Self.keywords)
      case 3...4: token = pick(Self.names)
      case 5...6: token = pick(Self.literals)
      case 7...8: token = pick(Self.punctuation)
      default: token = pick(Self.oddText)
      }
      text += token + (chance(80) ? " " : "")
    }
    return text
  }

  /// Statements of the right shape around random expressions, after the prelude.
  mutating func statements() -> String {
    var text = Self.prelude
    for _ in 0..<number(1...8) {
      let entity = pick(["Trip", "BusinessTrip", "PersonalTrip", "Accommodation", "only Trip"])
      let attribute = pick(Self.names)
      switch number(0...9) {
      case 0: text += "fetch \(entity) where \(condition(3))"
      case 1:
        text += "fetch \(entity) sort \(expression(2)) \(pick(["asc", "desc", ""]))"
        text += " limit \(pick(Self.literals)) offset \(pick(Self.literals))"
      case 2: text += "update \(entity) set \(attribute) = \(expression(3))"
      case 3: text += "insert \(entity) { \(attribute): \(expression(2)), name: \(expression(1)) }"
      case 4: text += "\(pick(["sum", "min", "max", "avg"])) \(entity).\(attribute)"
      case 5: text += "count \(entity) where \(condition(2)) by \(pick(Self.names + ["class"]))"
      case 6: text += "delete \(entity) where \(condition(2))"
      case 7: text += ".explain fetch \(entity) where \(condition(3))"
      case 8: text += pick(["save", "rollback", "begin", "commit", ".mode json", ".schema"])
      default:
        text +=
          "entity \(pick(Self.names)) : \(pick(Self.names)) { \(attribute): \(pick(Self.names)) }"
      }
      text += "\n"
    }
    return text
  }

  /// A random value expression of about `depth` levels.
  mutating func expression(_ depth: Int) -> String {
    if depth <= 0 || chance(30) {
      return chance(50) ? pick(Self.literals) : pick(Self.names)
    }
    switch number(0...5) {
    case 0:
      return "\(expression(depth - 1)) \(pick(["+", "-", "*", "/", "%"])) \(expression(depth - 1))"
    case 1: return "-\(expression(depth - 1))"
    case 2: return "(\(expression(depth - 1)))"
    case 3: return "\(pick(Self.names)).\(pick(Self.names))"
    case 4: return "{\(expression(depth - 1)), \(expression(depth - 1))}"
    default: return "(\(pick(Self.names)) where \(condition(depth - 1)))"
    }
  }

  /// A random condition of about `depth` levels.
  mutating func condition(_ depth: Int) -> String {
    if depth <= 0 || chance(30) {
      let op = pick([
        "==", "!=", "<", ">=", "BEGINSWITH", "CONTAINS[c]", "ENDSWITH[cd]", "LIKE", "MATCHES", "IN",
        "BETWEEN", "=",
      ])
      return "\(expression(1)) \(op) \(expression(1))"
    }
    switch number(0...5) {
    case 0: return "\(condition(depth - 1)) AND \(condition(depth - 1))"
    case 1: return "\(condition(depth - 1)) OR \(condition(depth - 1))"
    case 2: return "NOT (\(condition(depth - 1)))"
    case 3: return "\(pick(["ANY", "ALL", "NONE"])) \(pick(Self.names)).\(condition(0))"
    case 4: return "SUBQUERY(\(pick(Self.names)), $a, $a.\(condition(0))).@count > 0"
    default: return "self IS \(pick(Self.names)) AND (self AS \(pick(Self.names))).\(condition(0))"
    }
  }

  /// `source` with one to four random changes.
  mutating func mutate(_ source: String) -> String {
    var text = Array(source)
    // The spans of the original: later changes may shift them, which only makes them rougher.
    let spans = tokenSpans(source)
    for _ in 0..<number(1...4) {
      guard !spans.isEmpty, !text.isEmpty else { break }
      let span = pick(spans).clamped(to: 0..<text.count)
      switch number(0...9) {
      case 0:
        text.removeSubrange(span)
      case 1:
        text.insert(contentsOf: text[span], at: span.lowerBound)
      case 2:
        let other = pick(spans).clamped(to: 0..<text.count)
        if other.lowerBound >= span.upperBound {
          let (first, second) = (Array(text[span]), Array(text[other]))
          text.replaceSubrange(other, with: first)
          text.replaceSubrange(span, with: second)
        }
      case 3:
        text.removeSubrange(number(0...text.count)...)
      case 4:
        let lineEnd = text[span.lowerBound...].firstIndex(of: "\n") ?? text.count
        text.removeSubrange(span.lowerBound..<lineEnd)
      case 5:
        let index = number(0...max(text.count - 1, 0))
        if index < text.count { text[index] = pick(Array("(){}[]\"'$.,:;-=<>!@\n\r\u{0}é🏝x9")) }
      case 6:
        text.replaceSubrange(
          span,
          with: pick([
            "99999999999999999999999", "1e999", "-9223372036854775808", "9223372036854775807",
            "0", "-0.0", "1e-999", "0.1e400", "9999-99-99", "2026-13-01T99:99:99+99:99",
          ]))
      case 7:
        let levels = number(1...2000)
        let nested = pick([
          String(repeating: "(", count: levels) + "1" + String(repeating: ")", count: levels),
          // Beyond the limit only: the engine compiles nested NOTs in exponential time.
          String(repeating: "NOT ", count: levels + Parser.maximumDepth) + "true",
          String(repeating: "-", count: levels) + "1",
          String(repeating: "[", count: levels) + String(repeating: "]", count: levels),
          String(repeating: "1 + ", count: levels) + "1",
          "name" + String(repeating: ".name", count: levels),
          String(repeating: "(name == \"x\" OR ", count: levels) + "true"
            + String(repeating: ")", count: levels),
        ])
        text.insert(contentsOf: nested, at: span.lowerBound)
      case 8:
        let long =
          "\"" + String(repeating: pick(["x", "é", "\\n", "🏝"]), count: number(1...20_000))
        text.insert(contentsOf: long + (chance(80) ? "\"" : ""), at: span.lowerBound)
      default:
        text.insert(contentsOf: pick(Self.oddText), at: span.lowerBound)
      }
    }
    return String(text)
  }

  /// The character ranges of the tokens of `source` (each up to the next token's start).
  private func tokenSpans(_ source: String) -> [Range<Int>] {
    var lineStarts = [0]
    for (offset, character) in source.enumerated() where character == "\n" {
      lineStarts.append(offset + 1)
    }
    let starts = Lexer.tokens(of: source).compactMap { token -> Int? in
      guard token.location.line - 1 < lineStarts.count else { return nil }
      return lineStarts[token.location.line - 1] + token.location.column - 1
    }
    .filter { $0 <= source.count }
    return zip(starts, starts.dropFirst() + [source.count]).compactMap { start, end in
      start < end ? start..<end : nil
    }
  }
}
