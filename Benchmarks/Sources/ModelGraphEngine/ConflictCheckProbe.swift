import BenchmarkKit
import Foundation
import ModelGraph
import ModelGraphCore

/// The cost of the conflict check inside a W12 save, measured on the engine's own sessions.
///
/// A save runs `Session.conflicts(onto:)` only when another context published since the
/// saving context read (with two writer threads, nearly every save); it is one step of the
/// rebase, which then replays the changes onto the newer tables. The typed API does not expose
/// a context's session, so the probe builds the change set of a W12 transaction directly on
/// ModelGraphCore `Session`s over the benchmark's store, the way a context would record it:
/// a new plain trip and a new activity related to each other (two inserted rows) and one
/// budget written on a saved trip (one updated slot). Then:
///
/// - `conflict-check-ns`: a second session publishes a W12-shaped save (another trip's
///   budget), and the first session's `conflicts(onto:)` against that newer version is timed
///   in a loop (it finds nothing and changes nothing), median of 5 rounds of 2 000 calls;
/// - `rebase-ns`: the median time of `rebaseOntoLatest()` (the conflict check plus the
///   replay) for 200 fresh W12-shaped sessions, each after one W12-shaped foreign save.
///
/// Each is also given as a share of the median W12 save of the line it is printed on
/// (`conflict-check-share=`, `rebase-share=`), a save that itself paid for a rebase in most
/// cases. The probe's foreign saves insert trips named "New …", which the next run's setup
/// deletes with the W12 trips.
enum ConflictCheckProbe {
  /// What the probe measured, in nanoseconds.
  struct Figures {
    /// One `conflicts(onto:)` call for a W12-shaped change set after one foreign save.
    var conflictCheck: Double
    /// One `rebaseOntoLatest()` of a W12-shaped change set after one foreign save.
    var rebase: Double

    /// The line's keys, with shares of a save of `saveNanoseconds`.
    func fields(savedIn saveNanoseconds: Double) -> [ResultLine.Field] {
      func share(_ part: Double) -> String {
        saveNanoseconds > 0
          ? ResultLine.fixed(100 * part / saveNanoseconds, decimals: 1) + "%" : "-"
      }
      return [
        .init(key: "conflict-check-ns", value: ResultLine.fixed(conflictCheck, decimals: 0)),
        .init(key: "conflict-check-share", value: share(conflictCheck)),
        .init(key: "rebase-ns", value: ResultLine.fixed(rebase, decimals: 0)),
        .init(key: "rebase-share", value: share(rebase)),
      ]
    }
  }

  /// Measures both figures on `container`'s store (untimed work of the job's setup).
  ///
  /// - Throws: ``BenchmarkError`` when the store lacks the workload's classes, or a check
  ///   finds a conflict where none can be.
  static func measure(_ container: ModelContainer) throws -> Figures {
    let shape = try ChangeShape(container.store)
    var rounds: [Double] = []
    let mine = Session(store: container.store)
    try shape.write(into: mine, counter: 0)
    try shape.foreignSave(counter: 1)
    let latest = container.store.version
    let calls = 2_000
    for _ in 0..<5 {
      var found = 0
      let (seconds, _) = Stopwatch.time {
        for _ in 0..<calls { found += mine.conflicts(onto: latest).count }
      }
      guard found == 0 else { throw BenchmarkError("conflict probe: unexpected conflicts") }
      rounds.append(seconds * 1e9 / Double(calls))
    }
    mine.rollback()
    var rebases: [Double] = []
    for round in 0..<200 {
      let session = Session(store: container.store)
      try shape.write(into: session, counter: 2 * round + 2)
      try shape.foreignSave(counter: 2 * round + 3)
      let start = Stopwatch.now()
      let moved = try session.rebaseOntoLatest()
      rebases.append(Double(Stopwatch.now() &- start))
      guard moved else { throw BenchmarkError("conflict probe: the rebase found no newer save") }
      session.rollback()
    }
    return Figures(
      conflictCheck: RunStatistics(rounds).median, rebase: RunStatistics(rebases).median)
  }
}

/// Writes a W12 transaction's change set into a Core session: a new trip "New probe …" with a
/// new activity, related both ways, and `budget + 1` on a saved plain trip.
private struct ChangeShape {
  let store: Store
  let trip: ResolvedEntity
  let activity: ResolvedEntity
  let activities: Int
  let tripOfActivity: Int
  let budget: Int
  /// Saved plain trips, by row, to update (one per counter, in turn).
  let savedRows: [Int]

  init(_ store: Store) throws {
    self.store = store
    let catalog = store.catalog
    guard let trip = catalog.entity(named: "Trip"),
      let activity = catalog.entity(named: "Activity"),
      let activities = trip.relationships.firstIndex(where: { $0.name == "activities" }),
      let tripOfActivity = activity.relationships.firstIndex(where: { $0.name == "trip" }),
      let budget = trip.attributeSlot(named: "budget")
    else { throw BenchmarkError("conflict probe: the store has no Trip and Activity") }
    self.trip = trip
    self.activity = activity
    self.activities = activities
    self.tripOfActivity = tripOfActivity
    self.budget = budget
    var rows: [Int] = []
    store.version.tables[trip.index].forEachLiveRow { row in
      if rows.count < 1_000 { rows.append(row) }
    }
    guard rows.count >= 2 else { throw BenchmarkError("conflict probe: too few plain trips") }
    savedRows = rows
  }

  /// Records the change set in `session`; `counter` picks the trip and names the new one.
  func write(into session: Session, counter: Int) throws {
    let newTrip = session.insert(entity: trip.index)
    let newActivity = session.insert(entity: activity.index)
    let trips = session.table(trip.index)
    let row = Int(newTrip.row)
    let start = Date(seconds: WorkloadCalendar.start)
    let values: [(String, ModelValue)] = [
      ("name", .string("New probe \(counter)")), ("destination", .string("City 0")),
      ("startDate", .date(start)), ("endDate", .date(start)), ("identifier", .uuid(UUID())),
      ("budget", .double(100)),
    ]
    for (name, value) in values {
      guard let slot = trip.attributeSlot(named: name),
        trips.attributeColumns[slot].setValue(value, at: row)
      else { throw BenchmarkError("conflict probe: cannot set Trip.\(name)") }
    }
    trips.setRelatedKeys([newActivity], row: row, slot: activities)
    let activityTable = session.table(activity.index)
    for (name, value) in [
      ("name", ModelValue.string("Step probe \(counter)")), ("isComplete", .bool(false)),
      ("dateCreated", .date(start)),
    ] {
      guard let slot = activity.attributeSlot(named: name),
        activityTable.attributeColumns[slot].setValue(value, at: Int(newActivity.row))
      else { throw BenchmarkError("conflict probe: cannot set Activity.\(name)") }
    }
    activityTable.setRelatedKey(newTrip, row: Int(newActivity.row), slot: tripOfActivity)
    let saved = savedRows[counter % savedRows.count]
    let column = trips.attributeColumns[budget]
    guard case .double(let value) = column.value(at: saved),
      column.setValue(.double(value + 1), at: saved)
    else { throw BenchmarkError("conflict probe: cannot raise a budget") }
    session.recordAttributeWrite(
      slot: budget,
      of: ObjectKey(entity: trip.index, row: saved, generation: trips.generation(of: saved)))
  }

  /// Publishes a W12-shaped change set from a session of its own.
  func foreignSave(counter: Int) throws {
    let session = Session(store: store)
    try write(into: session, counter: counter)
    guard try session.publish() != nil else {
      throw BenchmarkError("conflict probe: a foreign save could not publish")
    }
  }
}
