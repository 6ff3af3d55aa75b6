import ModelGraphCore

/// A value while the runner evaluates an expression: a plain value, one object, or objects.
enum RunValue {
  /// An attribute value or literal.
  case value(ModelValue)
  /// One object, or `nil`.
  case object(ObjectKey?)
  /// A collection of objects.
  case objects([ObjectKey])

  /// The value as a condition: `true` only for `true`.
  var isTrue: Bool {
    if case .value(.bool(true)) = self { return true }
    return false
  }

  /// Whether this is `nil`.
  var isNull: Bool {
    switch self {
    case .value(let value): value.isNull
    case .object(let key): key == nil
    case .objects: false
    }
  }
}

/// An evaluation that failed at run time (division by zero, overflow, an interrupt).
struct EvaluationError: Error {
  let message: String
}
