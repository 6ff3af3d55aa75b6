import BenchmarkKit
import Dispatch
import Foundation
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// W13 and W13.threads4: W12's transactions on a new file-backed container (the default
  /// durability: each `save()` returns once its journal record is synced), split across
  /// `threads` writer threads, each with its own context, as W12 splits them.
  ///
  /// Before every run, outside the clock, a new container on a new file is loaded with the W13
  /// data set, saved and checkpointed. After the run, outside the clock, the container is
  /// released and the file opened again (read-only), and `count=` is the number of objects it
  /// holds; `reopen-ms=` is the time the open took (snapshot load and journal replay) and
  /// `journal-bytes=` the size of the journal's records. `syncs=` is the number of journal syncs
  /// the run's saves took, `saves-per-sync=` how many saves a sync covered on average
  /// (group commit; 1 for one writer) and `sync-us=` how long a sync took on average.
  /// `cpu-us-per-save=` is the CPU time (user and system, all threads) the process used during
  /// the run, per transaction: with `threads` writers on `c` cores, `c` divided by it bounds
  /// the transactions a second.
  func durableTransactionsPlan(_ durable: DurableTransactions, threads: Int, scratch: String)
    -> JobPlan
  {
    let url = URL(fileURLWithPath: scratch).appendingPathComponent("w13-\(threads).mgs")
    var container: ModelContainer?
    var reopen = ModelConfiguration(url: url, allowsSave: false)
    func removeFiles() {
      for suffix in ["", "-journal", ".lock"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
      }
    }
    return .timed(
      TimedJob(
        setUp: {
          container = nil
          removeFiles()
          let configuration =
            self.postgreSQL == nil ? ModelConfiguration(url: url) : try self.storeConfiguration()
          reopen = configuration
          let made = try ModelContainer(
            for: Trip.self, Accommodation.self, Activity.self, configurations: configuration)
          let context = ModelContext(made)
          Self.insert(durable.dataSet, into: context)
          try context.save()
          if self.postgreSQL == nil { try made.snapshot() }
          container = made
        },
        body: {
          guard let container else { throw BenchmarkError("modelgraph: W13 not set up") }
          let before = container.store.journal?.counters
          let cpuStart = Stopwatch.processCPU()
          let writers = (0..<threads).map {
            SmallTransactionWriter(
              container: container, transactions: durable.work.share(thread: $0, of: threads),
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
              thread.name = "W13 writer"
              thread.start()
            }
            group.wait()
          }
          let cpu = Stopwatch.processCPU() &- cpuStart
          var tally = try SmallTransactionWriter.tally(writers, threads: threads, probe: nil)
          if let before, let after = container.store.journal?.counters {
            let syncs = after.syncs - before.syncs
            let records = after.records - before.records
            tally.extras += [
              .init(key: "syncs", value: String(syncs)),
              .init(
                key: "saves-per-sync",
                value: ResultLine.fixed(Double(records) / Double(max(syncs, 1)), decimals: 2)),
              .init(
                key: "sync-us",
                value: ResultLine.fixed(
                  Double(after.syncNanoseconds &- before.syncNanoseconds) / 1e3
                    / Double(max(syncs, 1)), decimals: 1)),
            ]
          }
          let saves = writers.reduce(0) { $0 + $1.saveNanoseconds.count }
          tally.extras.append(
            .init(
              key: "cpu-us-per-save",
              value: ResultLine.fixed(Double(cpu) / 1e3 / Double(max(saves, 1)), decimals: 1)))
          return tally
        },
        verify: { tally in
          let journal = container?.store.journal?.size ?? 0
          container = nil
          let start = Stopwatch.now()
          let reopened = try ModelContainer(
            for: Trip.self, Accommodation.self, Activity.self,
            configurations: self.postgreSQL == nil
              ? ModelConfiguration(url: url, allowsSave: false) : reopen)
          let seconds = Double(Stopwatch.now() &- start) / 1e9
          let context = ModelContext(reopened)
          let count =
            try context.fetchCount(FetchDescriptor<Trip>())
            + context.fetchCount(FetchDescriptor<Accommodation>())
            + context.fetchCount(FetchDescriptor<Activity>())
          var answer = Tally(count: count, check: tally.check)
          answer.extras =
            [.init(key: "lookups", value: String(tally.count))] + tally.extras + [
              .init(key: "reopen-ms", value: ResultLine.fixed(seconds * 1e3, decimals: 1)),
              .init(key: "journal-bytes", value: String(journal)),
              .init(
                key: "replayed", value: String(reopened.recoveryReport.replayedRecords)),
            ]
          return answer
        },
        tearDown: { removeFiles() }))
  }
}
