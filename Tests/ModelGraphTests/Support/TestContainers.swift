import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// Whether the suites' "in-memory" containers are on PostgreSQL (see
/// ``testStoreConfiguration()``).
let testsRunOnPostgreSQL =
  ["postgresql", "postgresql-fetched"].contains(
    ProcessInfo.processInfo.environment["MODELGRAPH_TEST_STORE"])
  && !(ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"] ?? "").isEmpty

/// Whether those PostgreSQL containers keep only fetched objects in memory
/// (`residency=fetched`, with `MODELGRAPH_TEST_STORE=postgresql-fetched`).
let testsRunOnFetchedResidency =
  testsRunOnPostgreSQL
  && ProcessInfo.processInfo.environment["MODELGRAPH_TEST_STORE"] == "postgresql-fetched"

/// The configuration of the suites' "in-memory" containers: in memory, or, with
/// `MODELGRAPH_TEST_STORE=postgresql` (or `postgresql-fetched`, which adds `residency=fetched`)
/// and `MODELGRAPH_POSTGRESQL_URL` set, a new schema of that PostgreSQL database, so the
/// typed-API suites run unchanged against the PostgreSQL store.
func testStoreConfiguration() throws -> ModelConfiguration {
  let environment = ProcessInfo.processInfo.environment
  guard testsRunOnPostgreSQL, let base = environment["MODELGRAPH_POSTGRESQL_URL"]
  else { return ModelConfiguration(isStoredInMemoryOnly: true) }
  let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  try PostgreSQLConnection(base).run("CREATE SCHEMA \(name)")
  let separator = base.contains("?") ? "&" : "?"
  let residency = testsRunOnFetchedResidency ? "&residency=fetched" : ""
  return ModelConfiguration(
    url: URL(string: base + separator + "options=-csearch_path%3D\(name)" + residency)!)
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

/// Why a test is skipped with `MODELGRAPH_TEST_STORE=postgresql-fetched`: a context with
/// unsaved changes keeps reading the version it started them on, which a store keeping only
/// fetched objects cannot give (the database holds only its newest data): a fetch there moves
/// the context onto it, so it sees other contexts' saves, and a collision with them is
/// refused at that fetch rather than at the save.
let readsNewestWithUnsavedChanges: Comment =
  "keeps an older view while changes are pending, which residency=fetched cannot (by design)"
