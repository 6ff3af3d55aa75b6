import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// The PostgreSQL server the suites run against: `MODELGRAPH_POSTGRESQL_URL`, as
/// `scripts/postgresql-dev.sh start` prints it. Without it (or with it empty) the suites are
/// skipped.
enum TestServer {
  static let url = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"]
    .flatMap { $0.isEmpty ? nil : $0 }

  /// The line a skipped run shows.
  static let skipped: Comment = Comment(
    rawValue: "MODELGRAPH_POSTGRESQL_URL is not set, so the PostgreSQL suites are skipped; run "
      + "`eval $(scripts/postgresql-dev.sh start)` to start a private server")

  /// The URL of a new, empty schema of the test database: each test gets its own.
  static func freshURL() throws -> URL {
    let base = url!
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try PostgreSQLConnection(base).run("CREATE SCHEMA \(name)")
    let separator = base.contains("?") ? "&" : "?"
    return URL(string: base + separator + "options=-csearch_path%3D\(name)")!
  }

  /// Runs `sql` on its own connection to `url`'s schema and returns the first column of
  /// every row.
  static func query(_ sql: String, at url: URL) throws -> [String?] {
    let result = try PostgreSQLConnection(url.absoluteString).query(sql)
    return (0..<result.count).map { result.text($0, 0) }
  }

  /// A container on the PostgreSQL store at `url`.
  static func container(_ types: [any PersistentModel.Type], at url: URL) throws -> ModelContainer {
    try ModelContainer(for: types, configurations: [ModelConfiguration(url: url)])
  }
}

/// Polls `condition` until it holds or `seconds` pass; the suites' only use of time is this
/// generous upper bound on a propagation that normally takes milliseconds.
func eventually(within seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if try condition() { return true }
    Thread.sleep(forTimeInterval: 0.005)
  }
  return try condition()
}

/// Runs a suite only with a server: without one, the suite and everything in it is cancelled
/// with the one line ``TestServer/skipped``.
struct ServerRequirement: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    if TestServer.url == nil { try Test.cancel(TestServer.skipped) }
    try await function()
  }
}

extension Trait where Self == ServerRequirement {
  /// Runs the suite only when `MODELGRAPH_POSTGRESQL_URL` names a server.
  static var requiresServer: Self { ServerRequirement() }
}
