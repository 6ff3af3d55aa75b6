import BenchmarkKit
import Foundation
import ModelGraph
import ModelGraphCore

extension ModelGraphBenchmarkEngine {
  /// W10.save: the committed store written to a snapshot file (atomic and durable: temporary
  /// file, fsync, rename, directory fsync) with a new generation and its empty journal, as
  /// `ModelContainer.snapshot()` does for a file-backed container; the benchmark's container is
  /// in memory, so the store's files are written directly (`StoreFiles.overwrite`).
  func snapshotSavePlan(scratch: String) -> JobPlan {
    let path = scratch + "/modelgraph.mgs"
    return .timed(
      TimedJob(
        setUp: {
          DurableFile.remove(path)
          DurableFile.remove(path + "-journal")
        },
        body: { [unowned self] in
          guard let container else { throw BenchmarkError("modelgraph: not loaded") }
          let bytes = try StoreFiles(path: path).overwrite(with: container.store.version)
          return Tally(count: try Self.objectCount(ModelContext(container)), bytes: bytes)
        }))
  }

  /// W10.load: a new file-backed `ModelContainer` opened on the snapshot and its empty journal
  /// (lock, read, check every block, build the tables and indexes); the objects are counted
  /// after the clock stops.
  func snapshotLoadPlan(scratch: String) -> JobPlan {
    let path = scratch + "/modelgraph.mgs"
    var loaded: ModelContainer?
    return .timed(
      TimedJob(
        setUp: { [unowned self] in
          if !FileManager.default.fileExists(atPath: path), let container {
            try StoreFiles(path: path).overwrite(with: container.store.version)
          }
        },
        body: {
          loaded = try ModelContainer(
            for: Trip.self, Accommodation.self, Activity.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
          let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
          return Tally(count: 0, bytes: size)
        },
        verify: { tally in
          guard let loaded else { throw BenchmarkError("modelgraph: nothing loaded") }
          return Tally(count: try Self.objectCount(ModelContext(loaded)), bytes: tally.bytes)
        },
        tearDown: { loaded = nil }))
  }
}
