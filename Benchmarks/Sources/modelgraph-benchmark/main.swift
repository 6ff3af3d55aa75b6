import BenchmarkKit
import Foundation
import ModelGraphEngine

var catalog = EngineCatalog()
catalog.register("modelgraph", first: true) { _ in ModelGraphBenchmarkEngine() }
// With a server (scripts/postgresql-dev.sh start), the same engine on the PostgreSQL store.
if let url = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] {
  catalog.register("modelgraph-postgresql") { _ in ModelGraphBenchmarkEngine(postgreSQL: url) }
}
BenchmarkCommand.main(allocator: .glibc, catalog: catalog)
