import Foundation

extension SQLiteEngine {
  /// W1: a fresh `:memory:` database with the layout's schema, every object inserted with
  /// prepared statements in one transaction.
  ///
  /// - Complexity: O(N log N) (B-tree and index inserts).
  package func load(_ dataSet: DataSet) throws -> Tally {
    let database = try SQLiteDatabase()
    try database.execute(layout.schema)
    try Self.insert(dataSet, into: database, layout: layout)
    self.database = database
    return Tally(count: dataSet.objectCount)
  }

  /// Inserts every object of `dataSet` into `database` (which has `layout`'s schema) in one
  /// transaction.
  static func insert(_ dataSet: DataSet, into database: SQLiteDatabase, layout: SQLiteLayout)
    throws
  {
    try database.execute("BEGIN")
    let inserter = try TripInserter(database, layout)
    for (index, trip) in dataSet.trips.enumerated() {
      try inserter.insert(trip, id: Int64(index + 1))
    }
    let stay = try database.prepare(
      "INSERT INTO accommodation(name, nightlyRate, trip) VALUES (?1, ?2, ?3)")
    for record in dataSet.accommodations {
      stay.bind(1, record.name)
      stay.bind(2, record.nightlyRate)
      stay.bind(3, Int64(record.trip + 1))
      try stay.run()
    }
    let activity = try database.prepare(
      "INSERT INTO activity(name, isComplete, dateCreated, trip) VALUES (?1, ?2, ?3, ?4)")
    for record in dataSet.activities {
      activity.bind(1, record.name)
      activity.bind(2, Int64(record.isComplete ? 1 : 0))
      activity.bind(3, record.dateCreated)
      activity.bind(4, Int64(record.trip + 1))
      try activity.run()
    }
    try database.execute("COMMIT")
  }
}

/// The prepared trip inserts of a layout: one per trip table.
private struct TripInserter {
  let layout: SQLiteLayout
  let statements: [SQLiteStatement]

  init(_ database: SQLiteDatabase, _ layout: SQLiteLayout) throws {
    self.layout = layout
    let base = "id, name, destination, startDate, endDate, identifier, budget"
    let values = "?1, ?2, ?3, ?4, ?5, ?6, ?7"
    switch layout {
    case .classTables:
      statements = [
        try database.prepare("INSERT INTO trip(\(base)) VALUES (\(values))"),
        try database.prepare(
          "INSERT INTO businesstrip(\(base), company, expenseReport, meetingAgenda) "
            + "VALUES (\(values), ?8, ?9, ?10)"),
        try database.prepare(
          "INSERT INTO personaltrip(\(base), reason, companions) VALUES (\(values), ?11, ?12)"),
      ]
    case .hierarchy:
      statements = [
        try database.prepare(
          "INSERT INTO trip(\(base), company, expenseReport, meetingAgenda, reason, companions, "
            + "kind) VALUES (\(values), ?8, ?9, ?10, ?11, ?12, ?13)")
      ]
    }
  }

  func insert(_ trip: TripRecord, id: Int64) throws {
    let statement = layout == .classTables ? statements[trip.kind.rawValue] : statements[0]
    statement.bind(1, id)
    statement.bind(2, trip.name)
    statement.bind(3, trip.destination)
    statement.bind(4, trip.startDate)
    statement.bind(5, trip.endDate)
    statement.bind(6, trip.identifier)
    statement.bind(7, trip.budget)
    if layout == .hierarchy {
      statement.bind(13, Int64(trip.kind.rawValue))
      statement.bind(8, trip.company)
      statement.bind(9, trip.expenseReport)
      statement.bind(10, trip.meetingAgenda)
      if let reason = trip.reason {
        statement.bind(11, Int64(reason.rawValue))
      } else {
        statement.bindNull(11)
      }
      statement.bind(12, trip.kind == .personal ? trip.companions.joined(separator: ",") : nil)
    } else if trip.kind == .business {
      statement.bind(8, trip.company)
      statement.bind(9, trip.expenseReport)
      statement.bind(10, trip.meetingAgenda)
    } else if trip.kind == .personal {
      statement.bind(11, Int64(trip.reason?.rawValue ?? 0))
      statement.bind(12, trip.companions.joined(separator: ","))
    }
    try statement.run()
  }
}
