import Foundation
import ModelGraphScript
import Testing

extension PostgreSQLStoreSuites {
  @Suite("The runner on PostgreSQL") struct Runner {
    /// Runs `script` in a new runner; returns what it printed and its errors.
    func run(_ script: String) -> (stdout: String, stderr: String, succeeded: Bool) {
      var stdout = ""
      var stderr = ""
      let engine = ScriptEngine(output: { stdout += $0 })
      let runner = ScriptRunner(engine: engine, keepGoing: false, errorOutput: { stderr += $0 })
      let succeeded = runner.run(script, path: "script")
      return (stdout, stderr, succeeded)
    }

    @Test("the runner keeps every object in memory: it refuses residency=fetched, saying so")
    func refusesFetchedResidency() throws {
      let url = try TestServer.freshURL().absoluteString + "&residency=fetched"
      let result = run("open \"\(url)\"")
      #expect(!result.succeeded)
      #expect(result.stderr.contains("the runner keeps every object in memory"))
    }

    @Test(
      "`open \"postgresql://…\"` binds the runner to the database: saves land there, a new runner reads them"
    )
    func openSaveReopen() throws {
      let url = try TestServer.freshURL().absoluteString
      let first = run(
        """
        open "\(url)"
        entity Trip { name: String unique; budget: Double = 0 }
        entity PersonalTrip : Trip { reason: String }
        insert Trip { name: "Lisbon", budget: 900 }
        insert PersonalTrip { name: "Rome", budget: 2000, reason: "vacation" }
        save
        """)
      #expect(first.succeeded && first.stderr == "")
      #expect(
        try TestServer.query("SELECT reason FROM \"PersonalTrip\"", at: URL(string: url)!) == [
          "vacation"
        ])
      let second = run("open \"\(url)\"\ncount Trip\nsum Trip.budget")
      #expect(second.stderr == "")
      #expect(second.stdout.hasPrefix("2\n"))
      #expect(second.stdout.contains("2900"))
    }
  }
}
