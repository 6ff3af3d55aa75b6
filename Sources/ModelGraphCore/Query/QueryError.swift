/// A query the engine cannot plan: an unknown class or property, or operands of the wrong type.
///
/// The typed API never shows it to a user: it falls back to evaluating the `#Predicate` on the
/// candidate objects instead. The runner reports it.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem this is.
  public enum Code: String, Sendable, Hashable {
    /// A class name that is not in the catalog.
    case unknownEntity
    /// An attribute or relationship that the class does not have.
    case unknownProperty
    /// Operands whose types do not fit the operation.
    case typeMismatch
    /// An operation the engine does not evaluate (it is left to the front end).
    case unsupported
  }

  /// What kind of problem this is.
  public var code: Code
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
