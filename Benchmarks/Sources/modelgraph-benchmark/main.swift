import BenchmarkKit
import CAllocationCounter
import Foundation
import ModelGraphEngine

var catalog = EngineCatalog()
catalog.register("modelgraph", first: true) { _ in ModelGraphBenchmarkEngine() }
// With a server (scripts/postgresql-dev.sh start), the same engine on the PostgreSQL store.
if let url = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] {
  catalog.register("modelgraph-postgresql") { _ in ModelGraphBenchmarkEngine(postgreSQL: url) }
}
// glibc's allocator, with every allocation counted (CAllocationCounter replaces its entry points).
let allocator = Allocator(
  name: "glibc", detail: "glibc malloc",
  threadAllocations: { Int(modelgraph_thread_allocations()) })
BenchmarkCommand.main(allocator: allocator, catalog: catalog)
