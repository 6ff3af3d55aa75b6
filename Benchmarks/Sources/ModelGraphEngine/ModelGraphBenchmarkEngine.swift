package import BenchmarkKit
import ModelGraph

/// ModelGraph through its public typed API, written as a SwiftData user would write it:
/// `PersistentModel` subclasses with `@Attribute` and `@Relationship`, an in-memory
/// `ModelContainer`, one `ModelContext`, `#Predicate` and `SortDescriptor` in
/// `FetchDescriptor`s, `save()`.
package final class ModelGraphBenchmarkEngine: BenchmarkEngine {
  /// The current container, `nil` before ``load(_:)``.
  var container: ModelContainer?
  /// The context every job works through.
  var context: ModelContext?
  /// What the library can do, probed once.
  let capabilities = ModelGraphCapabilities.probe()

  /// The PostgreSQL database the containers live in (each load on a new schema), or `nil`
  /// for in-memory containers.
  let postgreSQL: String?
  /// The schemas ``storeConfiguration()`` made, dropped by ``finish()``.
  var schemas: [String] = []

  /// An engine with nothing loaded; with `postgreSQL`, its containers are on that database.
  package init(postgreSQL: String? = nil) {
    self.postgreSQL = postgreSQL
  }

  /// `modelgraph`, or `modelgraph-postgresql`.
  package var name: String { postgreSQL == nil ? "modelgraph" : "modelgraph-postgresql" }

  /// The API used and the capabilities found.
  package var notes: [String] {
    [
      "modelgraph: typed API (PersistentModel classes, @Attribute, @Relationship, "
        + "#Predicate, SortDescriptor, FetchDescriptor), "
        + (postgreSQL == nil ? "in-memory" : "PostgreSQL-backed (a new schema per load)")
        + " ModelContainer, one "
        + "ModelContext; capabilities probed: \(capabilities.summary)"
    ]
  }

  /// Drops the context and the container.
  package func unload() {
    context = nil
    container = nil
  }

  /// The current context, or an error if nothing is loaded.
  func current() throws -> ModelContext {
    guard let context else { throw BenchmarkError("modelgraph: no container loaded") }
    return context
  }

  /// The work of `job` through the current context.
  package func plan(_ job: JobID, parameters: QueryParameters, scratch: String) -> JobPlan {
    guard let context else { return .timed { throw BenchmarkError("modelgraph: not loaded") } }
    switch job {
    case .w2: return rangeQueryPlan(context, parameters)
    case .w3: return companyQueryPlan(context, parameters)
    case .w4: return reasonCountPlan(context)
    case .w5: return nameSearchPlan(context)
    case .w6: return prefetchPlan(context)
    case .w7Trip, .w7Business, .w7Activity: return countPlan(context, job)
    case .w8: return updatePlan(context)
    case .w9: return cascadeDeletePlan(context)
    case .w10Save: return snapshotSavePlan(scratch: scratch)
    case .w10Load: return snapshotLoadPlan(scratch: scratch)
    case .w12, .w12Threads2, .w12Threads4:
      return smallTransactionsPlan(context, parameters.transactions, threads: job.writerThreads)
    case .w13, .w13Threads4:
      return durableTransactionsPlan(
        parameters.durable, threads: job.writerThreads, scratch: scratch)
    case .w1, .w11: return .skipped(reason: "run by the harness")
    }
  }
}
