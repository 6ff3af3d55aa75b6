public import ModelGraphCore

/// One lexical unit of a script.
public struct Token: Sendable, Hashable {
  /// What kind of unit it is, with its value.
  public enum Kind: Sendable, Hashable {
    /// A name: an entity, attribute, keyword or operator word (`BEGINSWITH`).
    case identifier(String)
    /// `$name`: a script variable or a `SUBQUERY`/quantifier variable.
    case variable(String)
    /// A literal number, string or date.
    case literal(ModelValue)
    /// Punctuation or an operator symbol: `{ } ( ) [ ] , : ; . = == != <> < <= > >= + - * / % ? @`.
    case symbol(String)
    /// The end of a line.
    case newline
    /// The end of the script.
    case end
    /// Text that starts no token, with the reason; the parser reports it.
    case invalid(String)
  }

  /// The kind and value.
  public var kind: Kind
  /// Where it starts.
  public var location: SourceLocation
  /// A number literal as written (without `_`), for a `Decimal` attribute, which refuses one
  /// it cannot hold exactly; `nil` for other tokens.
  public var spelling: String?

  /// Makes a token.
  public init(_ kind: Kind, at location: SourceLocation) {
    self.kind = kind
    self.location = location
  }

  /// The name, for an identifier.
  public var identifier: String? {
    if case .identifier(let name) = kind { return name }
    return nil
  }

  /// Whether this is the identifier `word`, compared without case (keywords).
  public func isKeyword(_ word: String) -> Bool {
    identifier?.lowercased() == word.lowercased()
  }

  /// Whether this is the symbol `text`.
  public func isSymbol(_ text: String) -> Bool { kind == .symbol(text) }

  /// Whether this is a string literal.
  var isString: Bool {
    if case .literal(.string) = kind { return true }
    return false
  }

  /// The token as a diagnostic names it.
  public var display: String {
    switch kind {
    case .identifier(let name): "'\(name)'"
    case .variable(let name): "'$\(name)'"
    case .literal(let value): value.description
    case .symbol(let text): "'\(text)'"
    case .newline: "end of line"
    case .end: "end of input"
    case .invalid(let message): message
    }
  }
}
