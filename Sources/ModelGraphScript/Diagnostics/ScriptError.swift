/// A statement that failed: where, and why, in one sentence.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The spot the caret points at.
  public var location: SourceLocation
  /// What went wrong.
  public var message: String

  /// Makes an error at `location`.
  public init(_ message: String, at location: SourceLocation) {
    self.message = message
    self.location = location
  }

  /// `line:column: message`.
  public var description: String { "\(location): \(message)" }
}
