import Foundation
import ModelGraph

@testable import ModelGraphPostgreSQL

/// Whether the suites' "in-memory" containers are on PostgreSQL (see
/// ``testStoreConfiguration()``).
let testsRunOnPostgreSQL =
  ProcessInfo.processInfo.environment["MODELGRAPH_TEST_STORE"] == "postgresql"
  && ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] != nil

/// The configuration of the suites' "in-memory" containers: in memory, or, with
/// `MODELGRAPH_TEST_STORE=postgresql` and `MODELGRAPH_POSTGRESQL_URL` set, a new schema of that
/// PostgreSQL database, so the typed-API suites run unchanged against the PostgreSQL store.
func testStoreConfiguration() throws -> ModelConfiguration {
  let environment = ProcessInfo.processInfo.environment
  guard testsRunOnPostgreSQL, let base = environment["MODELGRAPH_POSTGRESQL_URL"]
  else { return ModelConfiguration(isStoredInMemoryOnly: true) }
  let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  try PostgreSQLConnection(base).run("CREATE SCHEMA \(name)")
  let separator = base.contains("?") ? "&" : "?"
  return ModelConfiguration(
    url: URL(string: base + separator + "options=-csearch_path%3D\(name)")!)
}

/// A container for `types` that lives only in memory (or in PostgreSQL, see
/// ``testStoreConfiguration()``).
func makeInMemoryContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
  try ModelContainer(for: types, configurations: [testStoreConfiguration()])
}

/// A fresh context on a new in-memory container for `types`.
func makeInMemoryContext(_ types: any PersistentModel.Type...) throws -> ModelContext {
  ModelContext(try ModelContainer(for: types, configurations: [testStoreConfiguration()]))
}
