extension SQLiteEngine {
  /// W10.save: the online backup API copies the in-memory database into a fresh file
  /// (SQLite's default `synchronous=FULL`, so the file is synced).
  func savePlan(_ database: SQLiteDatabase, scratch: String) -> JobPlan {
    let path = scratch + "/sqlite-\(layout.rawValue).db"
    let layout = self.layout
    return .timed(
      TimedJob(
        setUp: { DurableFile.remove(path) },
        body: {
          try SQLiteDatabase(path: path).restore(from: database)
          return Tally(count: 0, bytes: try DurableFile.size(path))
        },
        verify: { saved in
          let file = try SQLiteDatabase(path: path)
          return Tally(count: try Self.objectCount(file, layout), bytes: saved.bytes)
        }))
  }

  /// W10.load: the backup API copies the file into a fresh `:memory:` database (dropped after
  /// each run).
  func loadPlan(_ database: SQLiteDatabase, scratch: String) -> JobPlan {
    let path = scratch + "/sqlite-\(layout.rawValue).db"
    let layout = self.layout
    var loaded: SQLiteDatabase?
    return .timed(
      TimedJob(
        setUp: {
          if (try? DurableFile.size(path)) == nil {
            try SQLiteDatabase(path: path).restore(from: database)
          }
        },
        body: {
          let memory = try SQLiteDatabase()
          try memory.restore(from: try SQLiteDatabase(path: path))
          loaded = memory
          return Tally(count: 0, bytes: try DurableFile.size(path))
        },
        verify: { read in
          guard let loaded else { throw BenchmarkError("sqlite: nothing loaded") }
          return Tally(count: try Self.objectCount(loaded, layout), bytes: read.bytes)
        },
        tearDown: { loaded = nil }))
  }
}
