extension SQLiteEngine {
  /// W12: each transaction is `BEGIN`, a point lookup of trip `k` by its unique identifier
  /// (through the identifier index of every trip table), `budget = budget + 1` on it by
  /// primary key if it was found, the inserts of the new trip (in `trip`, the table of plain
  /// trips) and its activity, and `COMMIT`: prepared statements, one transaction each.
  ///
  /// The new trips take ids above the data set's (`M + 1 + t`), so the trip tables' ids stay
  /// unique across the hierarchy. Before every run the previous run's new trips and
  /// activities are deleted, outside the clock.
  /// - Complexity: O(T log N).
  func smallTransactionsPlan(_ database: SQLiteDatabase, _ work: SmallTransactions) throws
    -> JobPlan
  {
    let layout = self.layout
    let lookup = try database.prepare(
      layout.deepTripQuery(where: "identifier = ?1", "") { kind in "\(kind.rawValue), id, startDate"
      })
    let updates = try layout.tripTables.map { table, _ in
      try database.prepare("UPDATE \(table) SET budget = budget + 1 WHERE id = ?1")
    }
    let kindColumn = layout == .hierarchy ? ", kind" : ""
    let kindValue = layout == .hierarchy ? ", 0" : ""
    let insertTrip = try database.prepare(
      "INSERT INTO trip(id, name, destination, startDate, endDate, identifier, budget"
        + "\(kindColumn)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7\(kindValue))")
    let insertActivity = try database.prepare(
      "INSERT INTO activity(name, isComplete, dateCreated, trip) VALUES (?1, 0, ?2, ?3)")
    let firstNewID = Int64(work.tripsLoaded + 1)
    return .timed(
      TimedJob(
        setUp: {
          try database.execute(
            "DELETE FROM activity WHERE trip >= \(firstNewID); "
              + "DELETE FROM trip WHERE id >= \(firstNewID)")
        },
        body: {
          var checksum = StartDateChecksum()
          for transaction in work.transactions {
            try RunDeadline.check()
            try database.execute("BEGIN")
            lookup.bind(1, transaction.lookupIdentifier)
            if try lookup.step() {
              let table = layout == .hierarchy ? 0 : Int(lookup.int64(0))
              let id = lookup.int64(1)
              checksum.add(lookup.int64(2))
              lookup.reset()
              updates[table].bind(1, id)
              try updates[table].run()
            } else {
              lookup.reset()
            }
            let trip = transaction.trip
            let id = firstNewID + Int64(transaction.index)
            insertTrip.bind(1, id)
            insertTrip.bind(2, trip.name)
            insertTrip.bind(3, trip.destination)
            insertTrip.bind(4, trip.startDate)
            insertTrip.bind(5, trip.endDate)
            insertTrip.bind(6, trip.identifier)
            insertTrip.bind(7, trip.budget)
            try insertTrip.run()
            insertActivity.bind(1, transaction.activityName)
            insertActivity.bind(2, trip.startDate)
            insertActivity.bind(3, id)
            try insertActivity.run()
            try database.execute("COMMIT")
          }
          return checksum.tally
        }))
  }
}
