import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// The new rows of a save's tables as one statement, with its parameters numbered in turn.
@Suite("Merged inserts") struct MergedInsertTests {
  @Test("parameters are numbered after the parts before, text in quotes is left as it is")
  func renumbered() {
    let sql = "INSERT INTO \"a$1\" (id, \"$2\") VALUES ($1, $2), ($10, '$3')"
    #expect(
      PostgreSQLStore.renumbered(sql, by: 5)
        == "INSERT INTO \"a$1\" (id, \"$2\") VALUES ($6, $7), ($15, '$3')")
    #expect(PostgreSQLStore.renumbered(sql, by: 0) == sql)
  }

  @Test("the parts but the last are WITH parts; the values follow in order")
  func mergedText() {
    let parts = [
      PostgreSQLStatement("INSERT INTO t (id) VALUES ($1)", ["1"]),
      PostgreSQLStatement(
        "INSERT INTO j (o, t) SELECT $1, x FROM unnest($2::bigint[]) x", ["1", "{2}"]),
      PostgreSQLStatement("INSERT INTO u (id, v) VALUES ($1, $2)", ["2", nil]),
    ]
    #expect(
      PostgreSQLStore.mergedText(parts)
        == "WITH m0 AS (INSERT INTO t (id) VALUES ($1)), "
        + "m1 AS (INSERT INTO j (o, t) SELECT $2, x FROM unnest($3::bigint[]) x) "
        + "INSERT INTO u (id, v) VALUES ($4, $5)")
  }
}

extension PostgreSQLStoreSuites {
  /// A save is one implicit transaction of its pipeline: all of it commits or none of it.
  @Suite("Save transactions") struct SaveTransactions {
    @Test("a save whose commit fails (a unique value found taken at the commit) writes nothing")
    func failedCommitWritesNothing() throws {
      let url = try TestServer.freshURL()
      let first = ModelContext(try TestServer.container(teamTypes, at: url))
      first.insert(Team(name: "Taken"))
      try first.save()
      let version = try TestServer.query("SELECT version FROM mg_state", at: url)
      let logged = try TestServer.query("SELECT count(*) FROM mg_log", at: url)
      // Holds only fetched objects: the database finds the duplicate, at the commit.
      let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
      let context = ModelContext(try TestServer.container(teamTypes, at: fetched))
      let team = Team(name: "New")
      team.members = [Member(name: "Ada", score: 1)]
      context.insert(team)
      context.insert(Team(name: "Taken"))
      let error = try #require(throws: ModelError.self) { try context.save() }
      #expect(error.violations.map(\.rule) == ["value \"Taken\" is not unique"])
      #expect(try TestServer.query("SELECT name FROM \"Team\"", at: url) == ["Taken"])
      #expect(try TestServer.query("SELECT count(*) FROM \"Member\"", at: url) == ["0"])
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == version)
      #expect(try TestServer.query("SELECT count(*) FROM mg_log", at: url) == logged)
      // The connection goes on: the next save commits.
      context.rollback()
      context.insert(Team(name: "Later"))
      try context.save()
      #expect(
        try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url)
          == ["Later", "Taken"])
    }

    @Test("saves run read committed on a server whose default isolation is serializable")
    func readCommittedWhateverTheDefault() throws {
      let url = try TestServer.freshURL()
      let serializable = URL(
        string: url.absoluteString.replacingOccurrences(
          of: "options=", with: "options=-cdefault_transaction_isolation%3Dserializable%20"))!
      #expect(
        try TestServer.query("SHOW transaction_isolation", at: serializable) == ["read committed"])
      let context = ModelContext(try TestServer.container(teamTypes, at: serializable))
      context.insert(Team(name: "Saved"))
      try context.save()
      #expect(try TestServer.query("SELECT name FROM \"Team\"", at: url) == ["Saved"])
    }
  }
}
