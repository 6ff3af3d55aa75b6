import BenchmarkKit
import Dispatch
import Foundation
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W12 and its writer-scaling sub-jobs: the 10 000 small transactions, split across
  /// `threads` writer threads (transaction `t` goes to thread `t % threads`), each thread with
  /// its own `ModelContext` on the one container, each transaction saved on its own.
  ///
  /// A save that collides with another thread's save (the same trip's budget) throws
  /// ``ModelError`` with code `.conflict` under the default merge policy; the thread rolls
  /// back and redoes the transaction, so each transaction's update lands exactly once and the
  /// answer is the single-thread run's. The line adds `threads=`, `conflicts=` (redone
  /// transactions) and the median and 99th percentile of the saves that published
  /// (`save-p50-us=`, `save-p99-us=`). `W12.threads2` also carries the conflict check's cost
  /// (``ConflictCheckProbe``).
  ///
  /// Before every run, outside the clock, the engine's context deletes the trips (and by
  /// cascade the activities) an earlier run inserted, so every run starts from the objects W9
  /// left. Around every run, outside the clock, it sums the budgets of the data set's trips:
  /// each update that found its trip must raise the sum by exactly one, so `lost-updates=`
  /// counts the increments that did not land (two writers that read the same budget and both
  /// saved the same new value), and a run that lost any is marked `fault=` (the child fails).
  func smallTransactionsPlan(_ context: ModelContext, _ work: SmallTransactions, threads: Int)
    -> JobPlan
  {
    guard let container else { return .timed { throw BenchmarkError("modelgraph: not loaded") } }
    var probe: ConflictCheckProbe.Figures?
    var budgetsBefore: Int64 = 0
    return .timed(
      TimedJob(
        setUp: {
          if threads == 2 && probe == nil {
            probe = try ConflictCheckProbe.measure(container)
          }
          let prefix = SmallTransactionWriter.newTripPrefix
          try context.delete(model: Trip.self, where: #Predicate { $0.name.starts(with: prefix) })
          try context.save()
          budgetsBefore = try Self.dataSetBudgetCents(context)
        },
        body: {
          let writers = (0..<threads).map {
            SmallTransactionWriter(
              container: container, transactions: work.share(thread: $0, of: threads),
              checksDeadline: threads == 1)
          }
          if threads == 1 {
            writers[0].run()
          } else {
            let group = DispatchGroup()
            for writer in writers {
              group.enter()
              let thread = Thread {
                writer.run()
                group.leave()
              }
              thread.name = "W12 writer"
              thread.start()
            }
            group.wait()
          }
          return try SmallTransactionWriter.tally(writers, threads: threads, probe: probe)
        },
        verify: { tally in
          var tally = tally
          let raised = (try Self.dataSetBudgetCents(context) - budgetsBefore) / 100
          let lost = Int64(tally.count) - raised
          tally.extras.append(.init(key: "lost-updates", value: String(lost)))
          if lost != 0 {
            tally.extras.append(
              .init(key: "fault", value: "\(lost)-of-\(tally.count)-budget-updates-lost"))
          }
          return tally
        }))
  }

  /// The sum of the budgets, in cents, of every trip but those W12 inserts.
  static func dataSetBudgetCents(_ context: ModelContext) throws -> Int64 {
    var cents: Int64 = 0
    for trip in try context.fetch(FetchDescriptor<Trip>())
    where !trip.name.hasPrefix(SmallTransactionWriter.newTripPrefix) {
      cents &+= Int64((trip.budget * 100).rounded())
    }
    return cents
  }
}

/// One writer thread's share of W12, and what it saw.
final class SmallTransactionWriter: @unchecked Sendable {
  // @unchecked Sendable: the job hands each writer to exactly one thread, which alone touches
  // its mutable state until it finishes; the job reads the results only after joining it.

  /// The name prefix of the trips W12 inserts ("New t"); data-set trips are "Trip i".
  static let newTripPrefix = "New "
  /// Conflicts in a row on one transaction after which the run fails instead of spinning.
  static let retryLimit = 1_000

  let container: ModelContainer
  let transactions: [SmallTransactions.Transaction]
  let checksDeadline: Bool
  /// Start dates of the trips the lookups found, added when their transaction published.
  var checksum = StartDateChecksum()
  /// Nanoseconds of every `save()` that published.
  var saveNanoseconds: [UInt64] = []
  /// Saves refused with `.conflict` (each one a rollback and a redo).
  var conflicts = 0
  /// What stopped the writer, if anything did.
  var failure: (any Error)?

  init(
    container: ModelContainer, transactions: [SmallTransactions.Transaction],
    checksDeadline: Bool
  ) {
    self.container = container
    self.transactions = transactions
    self.checksDeadline = checksDeadline
    saveNanoseconds.reserveCapacity(transactions.count)
  }

  /// Runs every transaction of the share, each on a context of its own thread.
  func run() {
    let context = ModelContext(container)
    do {
      for transaction in transactions {
        if checksDeadline { try RunDeadline.check() }
        try perform(transaction, context)
      }
    } catch {
      failure = error
    }
  }

  /// One transaction, redone after a rollback until its save publishes.
  ///
  /// The lookup comes before the inserts. A context moves onto the newest saved state when
  /// it fetches with no unsaved changes; `rollback()` leaves it on the state it had read. A
  /// redo that inserted first would fetch with unsaved changes, read the same stale budget
  /// again and collide again, for ever. Reading first is also what a server does when a
  /// request names the object it changes.
  private func perform(_ transaction: SmallTransactions.Transaction, _ context: ModelContext)
    throws
  {
    let identifier = transaction.lookupIdentifier
    let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.identifier == identifier })
    for _ in 0...Self.retryLimit {
      var found: Int64?
      if let trip = try context.fetch(descriptor).first {
        trip.budget += 1
        found = Int64(trip.startDate.timeIntervalSince1970)
      }
      let trip = Trip(transaction.trip)
      trip.activities = [
        Activity(
          name: transaction.activityName, isComplete: false, dateCreated: trip.startDate)
      ]
      context.insert(trip)
      let start = Stopwatch.now()
      do {
        try context.save()
      } catch let error as ModelError where error.code == .conflict {
        conflicts += 1
        context.rollback()
        continue
      }
      saveNanoseconds.append(Stopwatch.now() &- start)
      if let found { checksum.add(found) }
      return
    }
    throw BenchmarkError(
      "modelgraph: W12 transaction \(transaction.index) collided \(Self.retryLimit + 1) times")
  }

  /// The answer of a run and its extra keys; rethrows the first writer's failure.
  static func tally(
    _ writers: [SmallTransactionWriter], threads: Int, probe: ConflictCheckProbe.Figures?
  ) throws -> Tally {
    if let failure = writers.lazy.compactMap(\.failure).first { throw failure }
    var count = 0
    var sum: Int64 = 0
    for writer in writers {
      count += writer.checksum.count
      sum &+= writer.checksum.sum
    }
    let latencies = writers.flatMap(\.saveNanoseconds).sorted()
    let p50 = percentile(latencies, 0.50)
    var tally = Tally(count: count, checksum: sum)
    tally.extras = [
      .init(key: "threads", value: String(threads)),
      .init(key: "conflicts", value: String(writers.reduce(0) { $0 + $1.conflicts })),
      .init(key: "save-p50-us", value: ResultLine.fixed(p50 / 1e3, decimals: 1)),
      .init(
        key: "save-p99-us", value: ResultLine.fixed(percentile(latencies, 0.99) / 1e3, decimals: 1)),
    ]
    if let probe {
      tally.extras += probe.fields(savedIn: p50)
    }
    return tally
  }

  /// The nearest-rank percentile `q` of sorted `values`, in the values' unit (0 when empty).
  static func percentile(_ values: [UInt64], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let rank = Int((Double(values.count) * q).rounded(.up))
    return Double(values[min(max(rank, 1), values.count) - 1])
  }
}
