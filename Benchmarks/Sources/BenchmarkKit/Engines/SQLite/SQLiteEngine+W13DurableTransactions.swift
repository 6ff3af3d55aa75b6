import Foundation

extension SQLiteEngine {
  /// W13: W12's transactions on a new database file in WAL mode with `synchronous=FULL`, one
  /// transaction per save, each durable when its `COMMIT` returns.
  ///
  /// Before every run, outside the clock, a new file is made and loaded with the W13 data set
  /// in one transaction. After the run, outside the clock, the database is closed and opened
  /// again from its file, and `count=` is the number of objects it holds; `reopen-ms=` is the
  /// time that took (open and count).
  func durableTransactionsPlan(_ durable: DurableTransactions, scratch: String) -> JobPlan {
    let layout = self.layout
    let path = scratch + "/w13-\(layout.rawValue).sqlite"
    // The statements of `job` keep the database open; dropping the job closes it.
    var job: TimedJob?
    func removeFiles() {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    return .timed(
      TimedJob(
        setUp: {
          job = nil
          removeFiles()
          let made = try SQLiteDatabase(path: path)
          try made.execute("PRAGMA journal_mode=WAL")
          try made.execute("PRAGMA synchronous=FULL")
          try made.execute(layout.schema)
          try Self.insert(durable.dataSet, into: made, layout: layout)
          try made.execute("PRAGMA wal_checkpoint(TRUNCATE)")
          guard case .timed(let timed) = try self.smallTransactionsPlan(made, durable.work) else {
            throw BenchmarkError("sqlite: W13 has no transactions")
          }
          job = timed
        },
        body: {
          guard let job else { throw BenchmarkError("sqlite: W13 not set up") }
          return try job.body()
        },
        verify: { tally in
          job = nil
          let start = Stopwatch.now()
          let reopened = try SQLiteDatabase(path: path)
          let count = try Self.objectCount(reopened, layout)
          let seconds = Double(Stopwatch.now() &- start) / 1e9
          var answer = Tally(count: count, check: tally.check)
          answer.extras = [
            .init(key: "lookups", value: String(tally.count)),
            .init(key: "reopen-ms", value: ResultLine.fixed(seconds * 1e3, decimals: 1)),
          ]
          return answer
        },
        tearDown: { removeFiles() }))
  }
}
