public import ModelGraphCore

extension PostgreSQLError {
  /// The engine's arithmetic fault that this server error is, when the database failed a
  /// predicate's arithmetic: SQLSTATE 22003 (numeric_value_out_of_range) is
  /// ``QueryError/Code/arithmeticOverflow``, 22012 (division_by_zero)
  /// ``QueryError/Code/divisionByZero``; `nil` for any other error.
  public var arithmeticFault: QueryError? {
    switch sqlState {
    case "22003": QueryError(.arithmeticOverflow, "integer overflow (PostgreSQL: \(message))")
    case "22012": QueryError(.divisionByZero, "division by zero (PostgreSQL: \(message))")
    default: nil
    }
  }
}
