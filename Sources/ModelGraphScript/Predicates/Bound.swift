import Foundation
import ModelGraphCore

/// The static type of a bound expression.
enum StaticType: Equatable, CustomStringConvertible {
  /// The `nil` literal.
  case null
  /// A value of an attribute type (optional or not).
  case scalar(ValueType)
  /// One object of a class (or `nil`).
  case object(Int)
  /// A collection of objects of a class.
  case objects(Int)
  /// A literal list.
  case list(ValueType?)

  var description: String {
    switch self {
    case .null: "nil"
    case .scalar(let type): "\(type)"
    case .object: "an object"
    case .objects: "a collection of objects"
    case .list(let element): "a list of \(element.map { "\($0)" } ?? "values")"
    }
  }

  /// Whether the type is a number.
  var isNumeric: Bool {
    switch self {
    case .scalar(.int), .scalar(.uint), .scalar(.double), .scalar(.decimal): true
    default: false
    }
  }
}

/// A regular expression compiled once for `LIKE` or `MATCHES`.
final class Pattern {
  let expression: NSRegularExpression
  init(_ expression: NSRegularExpression) { self.expression = expression }

  /// Whether the whole of `text` matches.
  func matches(_ text: String) -> Bool {
    let range = NSRange(text.startIndex..<text.endIndex, in: text)
    guard let match = expression.firstMatch(in: text, options: [.anchored], range: range) else {
      return false
    }
    return match.range == range
  }
}

/// An expression checked against the catalog, with names resolved; the runner translates it
/// into the engine's ``QueryExpression`` or evaluates it itself.
indirect enum Bound {
  case constant(ModelValue)
  case object(ObjectKey?)
  case variable(Int)
  case attribute(Bound, String)
  /// A field of a Codable (composite) value, read from its JSON by the runner as a value of
  /// the type given.
  case field(Bound, String, ValueType)
  case relationship(Bound, String, isToMany: Bool)
  case cast(Bound, String)
  case typeTest(Bound, String, isExact: Bool)
  case count(Bound)
  case subquery(Bound, variable: Int, Bound)
  case query(entity: Int, Bound?)
  case arithmetic(Bound, QueryArithmeticOperator, Bound)
  /// `date ± seconds` or `date - date` over a key path, computed by the runner (the engine's
  /// arithmetic takes numbers only).
  case dateArithmetic(Bound, QueryArithmeticOperator, Bound)
  case negate(Bound)
  case compare(Bound, Comparison.Operator, Bound, options: String.CompareOptions, pattern: Pattern?)
  case quantified(Comparison.Quantifier, Bound, variable: Int, Bound)
  case and([Bound])
  case or([Bound])
  case not(Bound)
  case list([Bound])
}
