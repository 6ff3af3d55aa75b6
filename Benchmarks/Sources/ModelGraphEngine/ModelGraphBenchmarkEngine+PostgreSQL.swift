import BenchmarkKit
import Foundation
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// In memory, or a new schema of the engine's PostgreSQL database (made with `psql`, dropped
  /// by ``finish()``).
  func storeConfiguration() throws -> ModelConfiguration {
    guard let postgreSQL else { return ModelConfiguration(isStoredInMemoryOnly: true) }
    let schema = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    guard try psql(postgreSQL, "CREATE SCHEMA \(schema)") else {
      throw BenchmarkError("modelgraph-postgresql: psql could not create schema \(schema)")
    }
    schemas.append(schema)
    let separator = postgreSQL.contains("?") ? "&" : "?"
    return ModelConfiguration(
      url: URL(string: postgreSQL + separator + "options=-csearch_path%3D\(schema)")!)
  }

  /// Releases the context and the container, then drops the schemas the engine made: a run
  /// leaves nothing behind in the database.
  package func finish() {
    context = nil
    container = nil
    guard let postgreSQL, !schemas.isEmpty else { return }
    let dropped =
      "SET client_min_messages = warning; "
      + schemas.map { "DROP SCHEMA IF EXISTS \($0) CASCADE;" }.joined(separator: " ")
    if (try? psql(postgreSQL, dropped)) != true {
      Console.line("# \(name): psql could not drop schemas \(schemas.joined(separator: ", "))")
    }
    schemas = []
  }

  /// Runs `command` through `psql` on `database`; whether it succeeded.
  private func psql(_ database: String, _ command: String) throws -> Bool {
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = ["psql", database, "-qc", command]
    try psql.run()
    psql.waitUntilExit()
    return psql.terminationStatus == 0
  }
}
