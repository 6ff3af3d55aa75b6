/// Reads statements from a script's tokens, one at a time, so a script runs statement by
/// statement and a syntax error stops (or, with `--keep-going`, skips) only its own statement.
public struct Parser {
  var tokens: [Token]
  var position = 0
  let lines: [Substring]
  /// How many nested parentheses, lists, `NOT`s and `-`s the parser is inside.
  var nesting = 0

  /// The most levels an expression may have, and the most nested parentheses, lists, `NOT`s
  /// and `-`s: deeper input is a syntax error, not a stack overflow in the passes that walk it.
  public static let maximumDepth = 200

  /// A parser over `source`.
  ///
  public init(source: String) {
    tokens = Lexer.tokens(of: source)
    lines = source.withUnixLineEnds.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// Whether every statement was read.
  public var isAtEnd: Bool {
    var index = position
    while tokens[index].kind == .newline || tokens[index].isSymbol(";") { index += 1 }
    return tokens[index].kind == .end
  }

  /// The next statement, or `nil` at the end.
  ///
  /// - Throws: ``ScriptError`` for a syntax error; call ``skipStatement()`` to go on.
  public mutating func nextStatement() throws -> Statement? {
    while current.kind == .newline || current.isSymbol(";") { position += 1 }
    if current.kind == .end { return nil }
    let start = position
    do {
      let statement = try parseStatement()
      guard current.kind == .newline || current.isSymbol(";") || current.kind == .end else {
        throw ScriptError(
          "expected the end of the statement, found \(current.display)"
            + Suggestion.hint(for: current.identifier ?? "", among: Self.clauseWords),
          at: current.location)
      }
      return statement
    } catch let error as ScriptError {
      // Text the lexer could not read explains the failure better than what the parser expected.
      for token in tokens[start...min(position, tokens.count - 1)] {
        if case .invalid(let message) = token.kind {
          throw ScriptError(message, at: token.location)
        }
      }
      throw error
    }
  }

  /// The source text of `statement`, the one just read: from its start to the `;`, line end
  /// or end of input after it.
  public func text(of statement: Statement) -> String {
    let start = statement.location
    let end = current.location
    var text: [Substring] = []
    for line in start.line...max(start.line, end.line) where lines.indices.contains(line - 1) {
      var part = lines[line - 1]
      if line == end.line, current.kind != .newline, current.kind != .end {
        part = part.prefix(max(end.column - 1, 0))
      }
      if line == start.line { part = part.dropFirst(start.column - 1) }
      text.append(part)
    }
    return text.joined(separator: "\n").trimmingSpaces()
  }

  /// Moves past the rest of the statement that failed, to the next line at brace depth 0.
  public mutating func skipStatement() {
    var depth = 0
    while current.kind != .end {
      if current.isSymbol("{") || current.isSymbol("(") || current.isSymbol("[") { depth += 1 }
      if current.isSymbol("}") || current.isSymbol(")") || current.isSymbol("]") {
        depth = max(depth - 1, 0)
      }
      if depth == 0, current.kind == .newline || current.isSymbol(";") { return }
      position += 1
    }
  }

  var current: Token { tokens[position] }

  func peek(_ offset: Int = 1) -> Token {
    tokens[min(position + offset, tokens.count - 1)]
  }

  mutating func advance() -> Token {
    let token = tokens[position]
    if token.kind != .end { position += 1 }
    return token
  }

  /// Consumes the keyword `word` if it is next.
  mutating func accept(keyword word: String) -> Bool {
    guard current.isKeyword(word) else { return false }
    position += 1
    return true
  }

  /// Consumes the symbol `text` if it is next.
  mutating func accept(symbol text: String) -> Bool {
    guard current.isSymbol(text) else { return false }
    position += 1
    return true
  }

  mutating func expect(symbol text: String, _ what: String) throws {
    guard accept(symbol: text) else {
      throw ScriptError(
        "expected '\(text)' \(what), found \(current.display)", at: current.location)
    }
  }

  mutating func expectIdentifier(_ what: String) throws -> (String, SourceLocation) {
    guard let name = current.identifier else {
      throw ScriptError("expected \(what), found \(current.display)", at: current.location)
    }
    let location = current.location
    position += 1
    return (name, location)
  }

  mutating func expectInteger(_ what: String) throws -> Int {
    let token = current
    switch token.kind {
    case .literal(.uint(let value)):
      throw ScriptError("\(what) of \(value) is out of range", at: token.location)
    case .literal(.decimal(let value)) where token.spelling?.allSatisfy(\.isNumber) == true:
      throw ScriptError("\(what) of \(value) is out of range", at: token.location)
    default: break
    }
    guard case .literal(.int(let value)) = token.kind else {
      throw ScriptError("expected \(what) (an integer), found \(token.display)", at: token.location)
    }
    position += 1
    return Int(value)
  }

  mutating func expectString(_ what: String) throws -> String {
    let token = current
    guard case .literal(.string(let value)) = token.kind else {
      throw ScriptError(
        "expected \(what) (a quoted string), found \(token.display)", at: token.location)
    }
    position += 1
    return value
  }

  /// Enters one more level of nesting (call `nesting -= 1` on the way out).
  ///
  /// - Throws: ``ScriptError`` at `location` past ``maximumDepth``.
  mutating func enter(at location: SourceLocation) throws {
    guard nesting < Self.maximumDepth else { throw Self.tooDeep(at: location) }
    nesting += 1
  }

  /// An expression node, unless it has more than ``maximumDepth`` levels.
  func node(_ kind: Expression.Kind, at location: SourceLocation) throws -> Expression {
    let expression = Expression(kind, at: location)
    guard expression.depth <= Self.maximumDepth else { throw Self.tooDeep(at: location) }
    return expression
  }

  private static func tooDeep(at location: SourceLocation) -> ScriptError {
    ScriptError(
      "the expression nests too deeply (more than \(maximumDepth) levels); split it up",
      at: location)
  }

  /// Skips newlines inside brackets.
  mutating func skipNewlines() {
    while current.kind == .newline { position += 1 }
  }

  /// Skips newlines when the next line starts with one of `keywords` (a clause continued on the
  /// next line).
  mutating func continueClause(_ keywords: [String]) {
    var index = position
    while tokens[index].kind == .newline { index += 1 }
    if keywords.contains(where: { tokens[index].isKeyword($0) }) { position = index }
  }

  /// The rest of the line of `token`, after it.
  func restOfLine(after token: Token) -> String {
    let index = token.location.line - 1
    guard lines.indices.contains(index) else { return "" }
    let line = lines[index]
    let name = token.identifier ?? ""
    let start = token.location.column - 1 + name.count
    guard start <= line.count else { return "" }
    return String(line.dropFirst(start)).trimmingSpaces()
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" || first == "\r" {
      text = text.dropFirst()
    }
    while let last = text.last, last == " " || last == "\t" || last == "\r" {
      text = text.dropLast()
    }
    return String(text)
  }
}
