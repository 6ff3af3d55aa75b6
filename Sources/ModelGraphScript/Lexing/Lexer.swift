import Foundation
import ModelGraphCore

/// Splits a script into tokens; `--` starts a comment that runs to the end of the line.
///
/// Dates are literals: `2026-05-01`, `2026-05-01T09:30:00Z` (UTC unless an offset is given).
/// Strings use double or single quotes with `\"`, `\'`, `\\`, `\n`, `\r`, `\t` and `\u{301}`
/// escapes (1 to 8 hex digits), and are read scalar by scalar.
public struct Lexer {
  private let characters: [Character]
  private var index = 0
  private var line = 1
  private var column = 1

  /// A lexer over `source`.
  public init(_ source: String) {
    characters = Array(source.withUnixLineEnds)
  }

  /// Every token of the source, ending with ``Token/Kind/end``; an unterminated string, a bad
  /// date or number, or a character that starts no token becomes an ``Token/Kind/invalid(_:)``
  /// token, and lexing goes on at the next line.
  public static func tokens(of source: String) -> [Token] {
    var lexer = Lexer(source)
    var result: [Token] = []
    while true {
      do {
        let token = try lexer.next()
        result.append(token)
        if token.kind == .end { return result }
      } catch let error as ScriptError {
        result.append(Token(.invalid(error.message), at: error.location))
        lexer.skipLine()
      } catch {
        result.append(Token(.invalid("\(error)"), at: lexer.here))
        lexer.skipLine()
      }
    }
  }

  mutating func skipLine() {
    while let character = peek(), character != "\n" { _ = advance() }
  }

  var here: SourceLocation { SourceLocation(line: line, column: column) }

  private func peek(_ offset: Int = 0) -> Character? {
    index + offset < characters.count ? characters[index + offset] : nil
  }

  private mutating func advance() -> Character {
    let character = characters[index]
    index += 1
    if character == "\n" {
      line += 1
      column = 1
    } else {
      column += 1
    }
    return character
  }

  /// The next token.
  public mutating func next() throws -> Token {
    skipSpaceAndComments()
    let start = here
    guard let character = peek() else { return Token(.end, at: start) }
    if character == "\n" {
      _ = advance()
      return Token(.newline, at: start)
    }
    if character.isLetter || character == "_" {
      return Token(.identifier(readWord()), at: start)
    }
    if character == "$" {
      _ = advance()
      guard let first = peek(), first.isLetter || first == "_" else {
        throw ScriptError("expected a variable name after '$'", at: start)
      }
      return Token(.variable(readWord()), at: start)
    }
    if character.isASCII, character.isNumber {
      if isDateAhead() { return Token(.literal(try readDate(start)), at: start) }
      let (value, text) = try readNumber(start)
      var token = Token(.literal(value), at: start)
      token.spelling = text
      return token
    }
    // A mark typed right after the opening quote joins it into one `Character`.
    if let first = character.unicodeScalars.first, first == "\"" || first == "'" {
      return Token(.literal(.string(try readString(start))), at: start)
    }
    for symbol in ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"] {
      if matches(symbol) {
        for _ in symbol { _ = advance() }
        let canonical = ["<>": "!=", "=<": "<=", "=>": ">="][symbol] ?? symbol
        return Token(.symbol(canonical), at: start)
      }
    }
    if "{}()[],:;.=<>+-*/%?@!".contains(character) {
      _ = advance()
      return Token(.symbol(String(character)), at: start)
    }
    throw ScriptError("unexpected \(Self.describe(character))", at: start)
  }

  /// `character 'x'`, or `invisible character U+00A0` for a space, control or format character
  /// that would show as nothing between the quotes.
  private static func describe(_ character: Character) -> String {
    let invisible = character.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isWhitespace
        || [.control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator]
          .contains(scalar.properties.generalCategory)
    }
    guard invisible else { return "character '\(character)'" }
    return "invisible character " + character.unicodeScalars.map(code).joined(separator: " ")
  }

  /// `U+00A0`: a scalar's code point, at least four hex digits.
  private static func code(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  private func matches(_ text: String) -> Bool {
    for (offset, character) in text.enumerated() where peek(offset) != character {
      return false
    }
    return true
  }

  private mutating func skipSpaceAndComments() {
    while let character = peek() {
      if character == " " || character == "\t" || character == "\r" {
        _ = advance()
      } else if character == "-", peek(1) == "-" {
        while let next = peek(), next != "\n" { _ = advance() }
      } else {
        return
      }
    }
  }

  private mutating func readWord() -> String {
    var word = ""
    while let character = peek(), character.isLetter || character.isNumber || character == "_" {
      word.append(advance())
    }
    return word
  }

  private mutating func readDigits() -> String {
    var digits = ""
    while let character = peek(), character.isASCII, character.isNumber || character == "_" {
      let next = advance()
      if next != "_" { digits.append(next) }
    }
    return digits
  }

  /// A number and its text (without `_`).
  private mutating func readNumber(_ start: SourceLocation) throws -> (ModelValue, String) {
    var text = readDigits()
    var isDouble = false
    if peek() == ".", let after = peek(1), after.isASCII, after.isNumber {
      isDouble = true
      text.append(advance())
      text += readDigits()
    }
    if peek() == "e" || peek() == "E" {
      isDouble = true
      text.append(advance())
      if peek() == "+" || peek() == "-" { text.append(advance()) }
      text += readDigits()
    }
    if let character = peek(), character.isLetter {
      throw ScriptError("malformed number '\(text)\(character)'", at: start)
    }
    if isDouble {
      guard let value = Double(text) else { throw ScriptError("malformed number", at: start) }
      // More significant digits than a `Double` keeps: every digit, for a `Decimal` operand.
      if let exact = DecimalMath.literal(text, nearest: value) { return (.decimal(exact), text) }
      return (.double(value), text)
    }
    if let value = Int64(text) { return (.int(value), text) }
    // Past `Int64.max`: a `UInt` attribute's value, or (after a minus) `Int64.min`.
    if let value = UInt64(text) { return (.uint(value), text) }
    // Past 64 bits: a `Decimal`'s value, exactly (an integer attribute refuses it), else the
    // nearest `Double` (which a `Decimal` attribute refuses, by the spelling).
    if let value = DecimalMath.exact(text) { return (.decimal(value), text) }
    return (.double(Double(text) ?? .infinity), text)
  }

  /// `dddd-dd-dd` follows.
  private func isDateAhead() -> Bool {
    let pattern = Array("0000-00-00")
    for (offset, expected) in pattern.enumerated() {
      guard let character = peek(offset) else { return false }
      if expected == "-" {
        guard character == "-" else { return false }
      } else {
        guard character.isASCII, character.isNumber else { return false }
      }
    }
    return true
  }

  private mutating func readDate(_ start: SourceLocation) throws -> ModelValue {
    var text = ""
    for _ in 0..<10 { text.append(advance()) }
    if peek() == "T" {
      while let character = peek(),
        character.isNumber || ":.+-TZ".contains(character)
      {
        text.append(advance())
      }
    }
    guard let date = DateLiteral.parse(text) else {
      throw ScriptError(
        "malformed date '\(text)'; use 2026-05-01 or 2026-05-01T09:30:00Z", at: start)
    }
    return .date(date)
  }

  /// A quoted string, read scalar by scalar: a combining mark typed right after the opening
  /// quote or an escape joins it into one `Character`, yet belongs to the string.
  private mutating func readString(_ start: SourceLocation) throws -> String {
    var pending = Array(advance().unicodeScalars)
    let quote = pending.removeFirst()
    var text = String.UnicodeScalarView()
    /// The next scalar of the string, or `nil` at a line's end (the string is unterminated).
    func next() -> Unicode.Scalar? {
      if pending.isEmpty {
        guard let character = peek(), character != "\n" else { return nil }
        pending = Array(advance().unicodeScalars)
      }
      return pending.removeFirst()
    }
    while true {
      guard let scalar = next() else { throw ScriptError("unterminated string", at: start) }
      if scalar == quote {
        if let joined = pending.first {
          throw ScriptError(
            "\(Self.code(joined)) is joined to the string's closing quote; write it inside the "
              + "string as \\u{\(String(joined.value, radix: 16))}", at: start)
        }
        return String(text)
      }
      guard scalar == "\\" else {
        text.append(scalar)
        continue
      }
      guard let escaped = next() else { throw ScriptError("unterminated string", at: start) }
      switch escaped {
      case "n": text.append("\n")
      case "t": text.append("\t")
      case "r": text.append("\r")
      case "\\", "\"", "'": text.append(escaped)
      case "u": text.append(try Self.readUnicodeEscape(next, start))
      default:
        throw ScriptError("unknown escape '\\\(escaped)' in string", at: start)
      }
    }
  }

  /// The scalar of a `\u{…}` escape after its `u`: 1 to 8 hex digits in braces.
  private static func readUnicodeEscape(
    _ next: () -> Unicode.Scalar?, _ start: SourceLocation
  ) throws -> Unicode.Scalar {
    let malformed = ScriptError(
      "a \\u escape is written \\u{301}: 1 to 8 hex digits in braces", at: start)
    guard next() == "{" else { throw malformed }
    var digits = ""
    while true {
      guard let scalar = next() else { throw malformed }
      if scalar == "}" { break }
      guard scalar.properties.isASCIIHexDigit, digits.count < 8 else { throw malformed }
      digits.unicodeScalars.append(scalar)
    }
    guard !digits.isEmpty, let value = UInt32(digits, radix: 16) else { throw malformed }
    guard let scalar = Unicode.Scalar(value) else {
      throw ScriptError(
        "\\u{\(digits)} is not a Unicode scalar (a surrogate, or past 10FFFF)", at: start)
    }
    return scalar
  }
}
