import BenchmarkKit
import Foundation
import ModelGraph

extension ModelGraphBenchmarkEngine {
  /// In memory, or a new schema of the engine's PostgreSQL database (made with `psql`).
  func storeConfiguration() throws -> ModelConfiguration {
    guard let postgreSQL else { return ModelConfiguration(isStoredInMemoryOnly: true) }
    let schema = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = ["psql", postgreSQL, "-qc", "CREATE SCHEMA \(schema)"]
    try psql.run()
    psql.waitUntilExit()
    guard psql.terminationStatus == 0 else {
      throw BenchmarkError("modelgraph-postgresql: psql could not create schema \(schema)")
    }
    let separator = postgreSQL.contains("?") ? "&" : "?"
    return ModelConfiguration(
      url: URL(string: postgreSQL + separator + "options=-csearch_path%3D\(schema)")!)
  }
}
