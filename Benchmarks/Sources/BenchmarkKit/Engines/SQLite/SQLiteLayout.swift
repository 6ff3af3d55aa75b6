/// How the SQLite peer lays out the trip hierarchy.
package enum SQLiteLayout: String, CaseIterable, Sendable {
  /// One table per class: `trip`, `businesstrip`, `personaltrip` (each with the inherited
  /// columns), `accommodation`, `activity`. Deep queries over Trip union the three trip tables.
  case classTables = "class"
  /// One table per hierarchy: `trip` with a `kind` column (0 Trip, 1 BusinessTrip,
  /// 2 PersonalTrip) and every subclass column, as Core Data and SwiftData store it.
  case hierarchy = "hierarchy"

  /// A one-line description for the `# sqlite layout:` note.
  package var summary: String {
    switch self {
    case .classTables:
      "one table per class (trip, businesstrip, personaltrip, accommodation, activity); "
        + "deep Trip queries UNION ALL the three trip tables"
    case .hierarchy:
      "one table per hierarchy (trip with a kind column, plus accommodation, activity)"
    }
  }

  /// The trip tables and the kind each holds.
  var tripTables: [(table: String, kind: TripKind)] {
    switch self {
    case .classTables: [("trip", .trip), ("businesstrip", .business), ("personaltrip", .personal)]
    case .hierarchy: [("trip", .trip)]
    }
  }

  /// The 13 columns every trip query returns, in ``TripRowReader`` order, for one table.
  ///
  /// `kind, id, name, destination, startDate, endDate, identifier, budget, company,
  /// expenseReport, meetingAgenda, reason, companions`.
  func tripColumns(_ kind: TripKind) -> String {
    let base = "id, name, destination, startDate, endDate, identifier, budget"
    switch (self, kind) {
    case (.hierarchy, _):
      return "kind, \(base), company, expenseReport, meetingAgenda, reason, companions"
    case (.classTables, .trip):
      return "0 AS kind, \(base), NULL, NULL, NULL, NULL, NULL"
    case (.classTables, .business):
      return "1 AS kind, \(base), company, expenseReport, meetingAgenda, NULL, NULL"
    case (.classTables, .personal):
      return "2 AS kind, \(base), NULL, NULL, NULL, reason, companions"
    }
  }

  /// A deep query over Trip: every trip table (or the one hierarchy table) filtered by
  /// `condition`, then `tail` (ORDER BY, LIMIT) over the whole.
  ///
  /// `columns` picks the selected columns per kind (``tripColumns(_:)`` for whole rows).
  func deepTripQuery(
    where condition: String, _ tail: String, columns: ((TripKind) -> String)? = nil
  ) -> String {
    let arms = tripTables.map { table, kind in
      "SELECT \(columns?(kind) ?? tripColumns(kind)) FROM \(table) WHERE \(condition)"
    }
    return arms.joined(separator: " UNION ALL ") + " " + tail
  }
}
