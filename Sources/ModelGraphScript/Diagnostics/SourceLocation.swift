/// A position in a script: 1-based line and column (columns count characters).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int

  /// A position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// Orders by line, then column.
  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
