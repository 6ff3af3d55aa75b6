extension SQLiteLayout {
  /// The tables and indexes: Trip.startDate (ordered), Trip.identifier (unique),
  /// BusinessTrip.company and the to-one side of each relationship.
  ///
  /// Indexes exist before the insert, as a store maintains them.
  var schema: String {
    let base = """
      id INTEGER PRIMARY KEY, name TEXT NOT NULL, destination TEXT NOT NULL,
      startDate INTEGER NOT NULL, endDate INTEGER NOT NULL, identifier BLOB NOT NULL UNIQUE,
      budget REAL NOT NULL
      """
    let children = """
      CREATE TABLE accommodation(id INTEGER PRIMARY KEY, name TEXT NOT NULL,
        nightlyRate REAL NOT NULL, trip INTEGER);
      CREATE INDEX accommodation_trip ON accommodation(trip);
      CREATE TABLE activity(id INTEGER PRIMARY KEY, name TEXT NOT NULL,
        isComplete INTEGER NOT NULL, dateCreated INTEGER NOT NULL, trip INTEGER);
      CREATE INDEX activity_trip ON activity(trip);
      """
    switch self {
    case .classTables:
      return """
        CREATE TABLE trip(\(base));
        CREATE INDEX trip_startDate ON trip(startDate);
        CREATE TABLE businesstrip(\(base), company TEXT NOT NULL, expenseReport TEXT,
          meetingAgenda TEXT);
        CREATE INDEX businesstrip_startDate ON businesstrip(startDate);
        CREATE INDEX businesstrip_company ON businesstrip(company);
        CREATE TABLE personaltrip(\(base), reason INTEGER NOT NULL, companions TEXT NOT NULL);
        CREATE INDEX personaltrip_startDate ON personaltrip(startDate);
        \(children)
        """
    case .hierarchy:
      return """
        CREATE TABLE trip(\(base), kind INTEGER NOT NULL, company TEXT, expenseReport TEXT,
          meetingAgenda TEXT, reason INTEGER, companions TEXT);
        CREATE INDEX trip_startDate ON trip(startDate);
        CREATE INDEX trip_kind ON trip(kind);
        CREATE INDEX trip_company ON trip(company);
        \(children)
        """
    }
  }
}
