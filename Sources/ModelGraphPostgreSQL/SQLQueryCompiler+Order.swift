import ModelGraphCore

extension SQLQueryCompiler {
  /// The conjunction of `parts` (conditions that are never NULL, each with whether it
  /// computes arithmetic), evaluated as Swift's `&&` would where that matters: PostgreSQL
  /// evaluates `AND`'s operands in any order, so arithmetic after a guard
  /// (`d <> 0 AND n / d > 3`) could fail on a row the guard excludes.
  ///
  /// The operands before the first one with arithmetic stay a plain `AND` (an index can answer
  /// them); the rest are tested in a `CASE` chain, which PostgreSQL evaluates in order, behind
  /// a `CASE` on those first operands. Without arithmetic after the first operand (Swift
  /// computes that one first anyway), a plain `AND`, in parentheses when `grouped`.
  static func conjunction(_ parts: [(sql: String, hasArithmetic: Bool)], grouped: Bool = true)
    -> String
  {
    guard parts.dropFirst().contains(where: \.hasArithmetic),
      let first = parts.firstIndex(where: \.hasArithmetic)
    else {
      let plain = parts.map(\.sql).joined(separator: " AND ")
      return grouped ? "(\(plain))" : plain
    }
    let plain = parts[..<first].map(\.sql)
    let rest = parts[first...].map(\.sql)
    let chain = rest.dropLast().reversed().reduce(rest.last!) {
      "CASE WHEN \($1) THEN \($0) ELSE false END"
    }
    guard !plain.isEmpty else { return "(\(chain))" }
    let guardSQL = plain.joined(separator: " AND ")
    return "(\(guardSQL) AND CASE WHEN \(guardSQL) THEN \(chain) ELSE false END)"
  }

  /// The disjunction of `parts`, evaluated in order, as Swift's `||` would, when an operand
  /// after the first computes arithmetic (a `CASE` chain); else a plain `OR`.
  static func disjunction(_ parts: [(sql: String, hasArithmetic: Bool)]) -> String {
    let sql = parts.map(\.sql)
    guard parts.dropFirst().contains(where: \.hasArithmetic) else {
      return "(" + sql.joined(separator: " OR ") + ")"
    }
    return "("
      + sql.dropLast().reversed().reduce(sql.last!) { "CASE WHEN \($1) THEN true ELSE \($0) END" }
      + ")"
  }
}
