import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// A save's update or delete of one object applies only to a row no newer than the version
  /// the save is based on; otherwise the statement fails with SQLSTATE MG002 and changes
  /// nothing (a delete's join rows included).
  @Suite("Row version check") struct RowVersionCheck {
    static func refused(_ statement: PostgreSQLStatement, on connection: PostgreSQLConnection)
      -> PostgreSQLError?
    {
      return #expect(throws: PostgreSQLError.self) { try connection.runPipelined([statement]) }
    }

    @Test("an update of a row newer than the save's base fails with MG002, naming the object")
    func update() throws {
      let url = try TestServer.freshURL()
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      context.insert(Member(name: "a", score: 1))
      try context.save()
      let id = try #require(try TestServer.query("SELECT id FROM \"Member\"", at: url).first)
      let connection = try PostgreSQLConnection(url.absoluteString)
      let text = PostgreSQLStore.updateText(
        SQLMapping.table("Member"), columns: [SQLMapping.quoted("score")])
      // Values, the new version, the identifier, the base version, the object's name.
      let error = Self.refused(
        PostgreSQLStatement(text, ["5", "2", id, "0", "Member/a"]), on: connection)
      #expect(error?.sqlState == PostgreSQLSchema.rowChanged)
      #expect(error?.message.contains("Member/a") == true)
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["1"])
      try connection.runPipelined([PostgreSQLStatement(text, ["5", "2", id, "1", "Member/a"])])
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["5"])
    }

    @Test("a delete of a row newer than the save's base fails with MG002 and keeps its join rows")
    func delete() throws {
      let url = try TestServer.freshURL()
      let container = try TestServer.container(teamTypes, at: url)
      let context = ModelContext(container)
      let team = Team(name: "T")
      let tag = Tag(label: "x")
      context.insert(team)
      context.insert(tag)
      team.tags = [tag]
      try context.save()
      let entity = try #require(container.store.catalog.entity(named: "Team"))
      let text = PostgreSQLStatementTexts(entity).delete
      let id = try #require(try TestServer.query("SELECT id FROM \"Team\"", at: url).first)
      let connection = try PostgreSQLConnection(url.absoluteString)
      // The identifier, the base version, the object's name.
      let error = Self.refused(PostgreSQLStatement(text, [id, "0", "Team/T"]), on: connection)
      #expect(error?.sqlState == PostgreSQLSchema.rowChanged)
      #expect(try TestServer.query("SELECT count(*) FROM \"Team\"", at: url) == ["1"])
      #expect(try TestServer.query("SELECT count(*) FROM \"Team.tags\"", at: url) == ["1"])
      try connection.runPipelined([PostgreSQLStatement(text, [id, "1", "Team/T"])])
      #expect(try TestServer.query("SELECT count(*) FROM \"Team\"", at: url) == ["0"])
      #expect(try TestServer.query("SELECT count(*) FROM \"Team.tags\"", at: url) == ["0"])
    }
  }
}
