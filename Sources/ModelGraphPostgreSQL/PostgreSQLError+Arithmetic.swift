public import ModelGraphCore

extension PostgreSQLError {
  /// The engine's arithmetic fault that this server error is, when the database failed a
  /// predicate's arithmetic: SQLSTATE 22003 (numeric_value_out_of_range) is
  /// ``QueryError/Code/arithmeticOverflow``, 22012 (division_by_zero)
  /// ``QueryError/Code/divisionByZero``; `nil` for any other error. The database does not say
  /// which operator failed: the message says "in the database" instead.
  public var arithmeticFault: QueryError? {
    switch sqlState {
    case "22003": QueryError(.arithmeticOverflow, "integer overflow in the database (\(reason))")
    case "22012": QueryError(.divisionByZero, "division by zero in the database (\(reason))")
    default: nil
    }
  }

  /// The server's message without its severity (`ERROR:  bigint out of range`).
  private var reason: String {
    guard message.hasPrefix("ERROR:") else { return message }
    return String(message.dropFirst("ERROR:".count).drop { $0 == " " })
  }
}
