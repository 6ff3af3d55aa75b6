/// One statement of a pipelined batch: its text, with `$1`, `$2`… where its values go, and
/// the values in PostgreSQL's text format.
///
/// The server reads a parameter's type from where it stands (the column it is assigned or
/// compared to), as it reads an untyped literal there.
struct PostgreSQLStatement {
  /// One SQL command.
  var sql: String
  /// The value of each `$n`, `nil` for SQL NULL.
  var parameters: [String?]
  /// Whether the text is a shape the connection meets again, so that it is parsed and planned
  /// once and reused by name; a text made for one use (values written into it) is sent
  /// unnamed.
  var reused: Bool

  /// The most rows (or looked-up values) a statement whose text grows with them has and is
  /// still kept prepared: larger ones would hold the server's memory for a rare shape, and
  /// their parsing is shared by their rows anyway.
  static let reusedRows = 16

  init(_ sql: String, _ parameters: [String?] = [], reused: Bool = true) {
    self.sql = sql
    self.parameters = parameters
    self.reused = reused
  }

  /// The statements as one text, for fault-injection hooks and messages.
  static func text(of statements: [PostgreSQLStatement]) -> String {
    statements.map { $0.sql + ";" }.joined(separator: "\n")
  }
}
