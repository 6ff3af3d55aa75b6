public import ModelGraphCore

/// A value or condition as written in a script, with where it starts.
///
/// Predicates follow NSPredicate's format syntax; the same tree serves values in `insert` and
/// `update`. ``Binder`` checks it against a catalog.
public struct Expression: Sendable, Hashable {
  /// What the expression is.
  public indirect enum Kind: Sendable, Hashable {
    /// A literal value (`nil`, `true`, numbers, strings, dates).
    case literal(ModelValue)
    /// `{a, b}` or `[a, b]`.
    case list([Expression])
    /// `self`: the object tested or updated.
    case this
    /// `$name`: a subquery or quantifier variable, else a script variable.
    case variable(String)
    /// `base.name`; a bare `name` has `this` as base.
    case member(Expression, String)
    /// `base.@count`.
    case count(Expression)
    /// `(base AS Entity)`.
    case cast(Expression, String)
    /// `SUBQUERY(collection, $variable, condition)`: the matching elements.
    case subquery(Expression, String, Expression)
    /// `(Entity where condition)`: the objects of a class that match, for relationship targets.
    case query(String, Expression?)
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a % b`.
    case arithmetic(Expression, QueryArithmeticOperator, Expression)
    /// `-a`.
    case negate(Expression)
    /// A comparison or string, collection or range operator, maybe quantified.
    case compare(Comparison)
    /// `a AND b AND …`.
    case and([Expression])
    /// `a OR b OR …`.
    case or([Expression])
    /// `NOT a`.
    case not(Expression)
    /// `base IS Entity` (or `IS ONLY Entity` for exactly the class).
    case typeTest(Expression, String, isExact: Bool)
    /// `{name: value, …}`: a Codable value, for a Codable attribute in `insert` and `update`.
    case object([ObjectField])
  }

  /// What the expression is.
  public var kind: Kind {
    didSet { depth = Self.depth(of: kind) }
  }
  /// Where it starts.
  public var location: SourceLocation
  /// The levels of the tree: 1 for a leaf, one more than the deepest operand otherwise.
  public private(set) var depth: Int
  /// A number literal (or a negated one) as written, `-1e-400`; `nil` for other expressions.
  public var spelling: String?

  /// Makes an expression.
  public init(_ kind: Kind, at location: SourceLocation) {
    self.kind = kind
    self.location = location
    depth = Self.depth(of: kind)
  }

  private static func depth(of kind: Kind) -> Int {
    let operands: [Expression]
    switch kind {
    case .literal, .this, .variable: operands = []
    case .list(let elements): operands = elements
    case .member(let base, _), .count(let base), .cast(let base, _), .negate(let base),
      .not(let base), .typeTest(let base, _, _):
      operands = [base]
    case .subquery(let collection, _, let condition): operands = [collection, condition]
    case .query(_, let condition): operands = condition.map { [$0] } ?? []
    case .arithmetic(let lhs, _, let rhs): operands = [lhs, rhs]
    case .compare(let comparison): operands = [comparison.lhs, comparison.rhs]
    case .and(let list), .or(let list): operands = list
    case .object(let fields): operands = fields.map(\.value)
    }
    return 1 + (operands.map(\.depth).max() ?? 0)
  }
}

/// One `name: value` of a `{name: value, …}` literal.
public struct ObjectField: Sendable, Hashable {
  /// The field's name.
  public var name: String
  /// Where the name is.
  public var location: SourceLocation
  /// The field's value.
  public var value: Expression

  /// Makes a field.
  public init(name: String, at location: SourceLocation, value: Expression) {
    self.name = name
    self.location = location
    self.value = value
  }
}

/// `lhs op[options] rhs`, maybe under `ANY`, `ALL` or `NONE`.
public struct Comparison: Sendable, Hashable {
  /// The operators of NSPredicate's format syntax.
  public enum Operator: String, Sendable, Hashable {
    /// `==` (also `=`)
    case equal = "=="
    /// `!=` (also `<>`)
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
    /// `BEGINSWITH`
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`
    case endsWith = "ENDSWITH"
    /// `CONTAINS`
    case contains = "CONTAINS"
    /// `LIKE` (`*` and `?` wildcards)
    case like = "LIKE"
    /// `MATCHES` (a regular expression matching the whole string)
    case matches = "MATCHES"
    /// `IN`
    case `in` = "IN"
    /// `BETWEEN {low, high}`
    case between = "BETWEEN"

    /// The ordering or equality operator of the engine, if this is one.
    var queryOperator: QueryComparisonOperator? {
      QueryComparisonOperator(rawValue: rawValue)
    }
  }

  /// `ANY`, `ALL` or `NONE` before a key path through a to-many relationship.
  public enum Quantifier: String, Sendable, Hashable {
    /// Some element matches (also `SOME`).
    case any = "ANY"
    /// Every element matches.
    case all = "ALL"
    /// No element matches.
    case none = "NONE"
  }

  /// The left operand.
  public var lhs: Expression
  /// The operator.
  public var op: Operator
  /// The right operand.
  public var rhs: Expression
  /// `[c]`: ignore case.
  public var caseInsensitive: Bool
  /// `[d]`: ignore diacritics.
  public var diacriticInsensitive: Bool
  /// The quantifier, if any.
  public var quantifier: Quantifier?
  /// Where the operator is.
  public var operatorLocation: SourceLocation
}
