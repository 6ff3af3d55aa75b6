import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A save's inserts: statements of a power-of-two number of rows, numbered parameters.
@Suite("Pipelined save statements") struct PipelinedStatementShapeTests {
  @Test("the inserts of 13 rows are statements of 8, 4 and 1 rows with every value once")
  func insertsInPowersOfTwo() {
    let rows = (0..<13).map { [String($0), $0 == 3 ? nil : "v\($0)"] }
    let statements = PostgreSQLStore.inserts("\"T\"", columns: ["id", "\"a\""], rows: rows)
    #expect(statements.map { $0.parameters.count / 2 } == [8, 4, 1])
    #expect(statements.flatMap(\.parameters) == rows.flatMap { $0 })
    #expect(statements[2].sql == "INSERT INTO \"T\" (id, \"a\") VALUES ($1, $2)")
    #expect(statements[1].sql.hasSuffix("($7, $8)"))
  }

  @Test("a wide table's inserts stay within PostgreSQL's 65,535 parameters")
  func insertsWithinParameterLimit() {
    let columns = (0..<300).map { "c\($0)" }
    let rows = Array(repeating: [String?](repeating: "1", count: 300), count: 1_000)
    let statements = PostgreSQLStore.inserts("t", columns: columns, rows: rows)
    #expect(statements.allSatisfy { $0.parameters.count <= 65_535 })
    #expect(statements.map { $0.parameters.count / 300 }.reduce(0, +) == 1_000)
  }
}

extension PostgreSQLStoreSuites {
  @Suite("Prepared statements") struct PreparedStatements {
    /// A fresh database holding one saved member, with its store and the context that saved it.
    private func savedMember() throws -> (URL, PostgreSQLStore, ModelContext, Member) {
      let url = try TestServer.freshURL()
      let container = try TestServer.container(teamTypes, at: url)
      let store = try #require(container.store.persistence as? PostgreSQLStore)
      let context = ModelContext(container)
      let member = Member(name: "Ada", score: 0)
      context.insert(member)
      try context.save()
      return (url, store, context, member)
    }

    @Test("saves of the same shape reuse the statements prepared by the first and write each value")
    func sameShapeReused() throws {
      let (url, store, context, member) = try savedMember()
      var counts: [Int] = []
      for score in 1...4 {
        member.score = score
        try context.save()
        #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == [String(score)])
        counts.append(store.preparedStatementCount)
      }
      #expect(counts[0] > 0)
      #expect(Set(counts).count == 1)
      let other = ModelContext(try TestServer.container(teamTypes, at: url))
      #expect(try other.fetch(FetchDescriptor<Member>()).map(\.score) == [4])
    }

    @Test(
      "awkward values (quotes, NULLs, Unicode, extreme integers, Decimal, Data) round-trip as parameters, inserted and updated"
    )
    func awkwardValuesRoundTrip() throws {
      let url = try TestServer.freshURL()
      let name = "O'Brien \"q\" \\ $1 naïve 日本 🎉 '\u{301}"
      let photo = Data([0, 0x5C, 0x27, 0x22, 0xFF, 0x78])
      let balance = Decimal(string: "-12345678901234567890.123456789")!
      do {
        let context = ModelContext(try TestServer.container(teamTypes, at: url))
        let team = Team(name: "Blue")
        let ada = Member(name: name, score: Int.max)
        ada.flags = UInt.max
        ada.rating = -.infinity
        ada.photo = photo
        ada.balance = balance
        ada.nicknames = ["it's", "", "\\x00"]
        ada.home = URL(string: "https://example.com/a'b?c=%27")
        ada.badge = UUID(uuidString: "00000000-0000-4000-8000-000000000001")
        ada.team = team
        let bo = Member(name: "", score: Int.min)
        bo.rating = .greatestFiniteMagnitude
        context.insert(team)
        context.insert(ada)
        context.insert(bo)
        try context.save()
        // Updated: values to NULL and NULL to values.
        ada.photo = nil
        ada.badge = nil
        ada.home = nil
        ada.team = nil
        bo.photo = Data()
        bo.home = URL(string: "file:///tmp/it's")
        bo.balance = Decimal(string: "0.000000000000000000000000000001")!
        bo.team = team
        try context.save()
      }
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      let members = try context.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score)]))
      #expect(members.count == 2)
      let bo = try #require(members.first)
      let ada = try #require(members.last)
      #expect(ada.name == name)
      #expect(ada.score == Int.max)
      #expect(ada.flags == UInt.max)
      #expect(ada.rating == -.infinity)
      #expect(ada.balance == balance)
      #expect(ada.nicknames == ["it's", "", "\\x00"])
      #expect(ada.photo == nil)
      #expect(ada.badge == nil)
      #expect(ada.home == nil)
      #expect(ada.team == nil)
      #expect(bo.name == "")
      #expect(bo.score == Int.min)
      #expect(bo.rating == .greatestFiniteMagnitude)
      #expect(bo.photo == Data())
      #expect(bo.home == URL(string: "file:///tmp/it's"))
      #expect(bo.balance == Decimal(string: "0.000000000000000000000000000001")!)
      #expect(bo.team?.name == "Blue")
      #expect(
        try TestServer.query("SELECT photo IS NULL FROM \"Member\" ORDER BY score", at: url)
          == ["f", "t"])
    }

    @Test("1,027 new objects and a list of 700 are written whole and in order")
    func manyRows() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container(teamTypes, at: url))
        let team = Team(name: "Many")
        context.insert(team)
        let tags = (0..<1_027).map { Tag(label: "t\($0)") }
        for tag in tags { context.insert(tag) }
        team.tags = Array(tags.prefix(700).reversed())
        try context.save()
      }
      #expect(try TestServer.query("SELECT count(*) FROM \"Tag\"", at: url) == ["1027"])
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      let team = try #require(try context.fetch(FetchDescriptor<Team>()).first)
      #expect(team.tags.map(\.label) == (0..<700).reversed().map { "t\($0)" })
    }

    @Test("a save after a lost connection prepares its statements again on the new connection")
    func reconnectPreparesAgain() throws {
      let (url, store, context, member) = try savedMember()
      #expect(eventually { store.isListening })
      member.score = 1
      try context.save()
      let fault = OneFault(.loseReplyAfterSending(committing: false), when: OneFault.isSave)
      store.injectFault = fault.hook
      member.score = 2
      let error = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(error?.code == .connectionLost)
      #expect(fault.hasFired)
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["1"])
      // The same shape again, on a new connection that has prepared nothing yet.
      try context.save()
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["2"])
      #expect(store.preparedStatementCount > 0)
      member.score = 3
      try context.save()
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["3"])
    }

    @Test("a column whose type changed after its insert was prepared takes values of the new type")
    func schemaChangeForgetsPrepared() throws {
      let url = try TestServer.freshURL()
      let connection = try PostgreSQLConnection(url.absoluteString)
      try connection.run("CREATE TABLE t (c bigint)")
      let insert = "INSERT INTO t (c) VALUES ($1)"
      try connection.runPipelined([PostgreSQLStatement(insert, ["5"])])
      #expect(connection.prepared.count == 1)
      try connection.run("ALTER TABLE t ALTER COLUMN c TYPE text")
      try connection.runPipelined([PostgreSQLStatement(insert, ["abc"])])
      #expect(try TestServer.query("SELECT c FROM t ORDER BY c", at: url) == ["5", "abc"])
    }

    @Test(
      "a statement run often enough to be looked up without hashing is prepared again after a schema change"
    )
    func schemaChangeForgetsRecentlyPrepared() throws {
      let url = try TestServer.freshURL()
      let connection = try PostgreSQLConnection(url.absoluteString)
      try connection.run("CREATE TABLE t (c bigint)")
      let insert = "INSERT INTO t (c) VALUES ($1)"
      // The second run finds the statement prepared, and remembers its name.
      for value in ["1", "2"] {
        try connection.runPipelined([PostgreSQLStatement(insert, [value])])
      }
      let first = try #require(connection.preparedName(insert))
      try connection.run("ALTER TABLE t ALTER COLUMN c TYPE text")
      #expect(connection.preparedName(insert) == nil)
      try connection.runPipelined([PostgreSQLStatement(insert, ["abc"])])
      #expect(try #require(connection.preparedName(insert)) != first)
      try connection.runPipelined([PostgreSQLStatement(insert, ["def"])])
      #expect(
        try TestServer.query("SELECT c FROM t ORDER BY c", at: url) == ["1", "2", "abc", "def"])
    }

    @Test(
      "a statement prepared in a transaction that changed the schema is dropped when it rolls back")
    func rolledBackSchemaChangeForgetsPrepared() throws {
      let url = try TestServer.freshURL()
      let connection = try PostgreSQLConnection(url.absoluteString)
      try connection.run("CREATE TABLE t (c bigint)")
      let insert = "INSERT INTO t (c) VALUES ($1)"
      try connection.run("BEGIN; ALTER TABLE t ALTER COLUMN c TYPE text")
      try connection.runPipelined([PostgreSQLStatement(insert, ["abc"])])
      #expect(connection.prepared.count == 1)
      try connection.run("ROLLBACK")
      try connection.runPipelined([PostgreSQLStatement(insert, ["7"])])
      #expect(try TestServer.query("SELECT c FROM t", at: url) == ["7"])
    }

    @Test(
      "a failing statement skips the rest of its pipeline, which stays in one transaction; the connection goes on"
    )
    func failureSkipsTheRest() throws {
      let url = try TestServer.freshURL()
      let connection = try PostgreSQLConnection(url.absoluteString)
      try connection.run("CREATE TABLE t (c bigint)")
      func batch(_ divisor: String) -> [PostgreSQLStatement] {
        [
          PostgreSQLStatement("BEGIN"),
          PostgreSQLStatement("INSERT INTO t (c) VALUES ($1)", ["1"]),
          PostgreSQLStatement("SELECT 1 / $1::integer", [divisor]),
          PostgreSQLStatement("INSERT INTO t (c) VALUES ($1)", ["2"]),
          PostgreSQLStatement("COMMIT"),
        ]
      }
      let error = #expect(throws: PostgreSQLError.self) { try connection.runPipelined(batch("0")) }
      #expect(error?.sqlState == "22012")
      #expect(connection.isInTransaction)
      try connection.run("ROLLBACK")
      #expect(try TestServer.query("SELECT count(*) FROM t", at: url) == ["0"])
      try connection.runPipelined(batch("1"))
      #expect(try TestServer.query("SELECT c FROM t ORDER BY c", at: url) == ["1", "2"])
      #expect(!connection.isInTransaction)
    }
  }
}

extension PipelinedStatementShapeTests {
  @Test("an insert of a few rows is kept prepared, one of many is parsed for its one use")
  func largeInsertsNotKept() {
    let rows: [[String?]] = Array(repeating: ["1"], count: 48)
    let statements = PostgreSQLStore.inserts("t", columns: ["id"], rows: rows)
    #expect(statements.map { $0.parameters.count } == [32, 16])
    #expect(statements.map(\.reused) == [false, true])
  }
}
