import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// Every PostgreSQL suite, gated on a server: without `MODELGRAPH_POSTGRESQL_URL` this one
/// line says they were skipped.
@Suite("PostgreSQL store", .requiresServer)
struct PostgreSQLStoreSuites {
  @Suite("Saving and loading") struct SavingAndLoading {
    @Test("a saved graph comes back whole in a new container, with the same identifiers")
    func roundTrip() throws {
      let url = try TestServer.freshURL()
      var ids: [String: PersistentIdentifier] = [:]
      do {
        let context = ModelContext(try TestServer.container(teamTypes, at: url))
        let team = Team(name: "Blue")
        let tag = Tag(label: "north")
        let ada = Member(name: "Ada", score: 7)
        ada.rating = -2.5e-300
        ada.badge = UUID()
        ada.level = .senior
        ada.nicknames = ["a", "it's"]
        ada.photo = Data([0, 1, 254, 255])
        ada.balance = Decimal(string: "12.345")!
        ada.home = URL(string: "https://example.com/a?b=c")
        ada.flags = UInt.max
        ada.active = false
        let cap = Captain(name: "Bo", since: 2020)
        context.insert(team)
        context.insert(tag)
        context.insert(ada)
        context.insert(cap)
        team.members = [ada, cap]
        team.tags = [tag]
        try context.save()
        ids = [
          "team": team.persistentModelID, "ada": ada.persistentModelID,
          "cap": cap.persistentModelID,
        ]
      }
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      let teams = try context.fetch(FetchDescriptor<Team>())
      #expect(teams.map(\.name) == ["Blue"])
      let team = try #require(teams.first)
      #expect(team.persistentModelID == ids["team"])
      #expect(team.members.map(\.name) == ["Ada", "Bo"])
      #expect(team.tags.map(\.label) == ["north"])
      let ada = try #require(team.members.first)
      #expect(ada.persistentModelID == ids["ada"])
      #expect(ada.rating == -2.5e-300)
      #expect(ada.joined == Date(timeIntervalSinceReferenceDate: 123_456.789_012_345))
      #expect(ada.badge != nil)
      #expect(ada.level == .senior)
      #expect(ada.nicknames == ["a", "it's"])
      #expect(ada.photo == Data([0, 1, 254, 255]))
      #expect(ada.balance == Decimal(string: "12.345")!)
      #expect(ada.home == URL(string: "https://example.com/a?b=c"))
      #expect(ada.flags == UInt.max)
      #expect(ada.active == false)
      #expect(ada.team == team)
      let captain = try #require(team.members.last as? Captain)
      #expect(captain.since == 2020)
      #expect(captain.persistentModelID == ids["cap"])
      #expect(try context.fetchCount(FetchDescriptor<Member>()) == 2)
    }

    @Test("updates and deletes reach the database; a cascade removes the members")
    func updatesAndDeletes() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container(teamTypes, at: url))
        let red = Team(name: "Red")
        let green = Team(name: "Green")
        context.insert(red)
        context.insert(green)
        red.members = [Member(name: "Cy"), Member(name: "Di")]
        green.members = [Member(name: "Ed")]
        try context.save()
        red.name = "Crimson"
        red.members[0].score = 42
        context.delete(green)
        try context.save()
      }
      #expect(try TestServer.query("SELECT name FROM \"Team\"", at: url) == ["Crimson"])
      #expect(
        try TestServer.query("SELECT name FROM \"Member\" ORDER BY name", at: url) == ["Cy", "Di"])
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      let members = try context.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)]))
      #expect(members.map(\.score) == [42, 0])
      #expect(members.allSatisfy { $0.team?.name == "Crimson" })
    }

    @Test(
      "the mapping: a table per concrete class with inherited columns, a foreign key, join tables, a unique constraint"
    )
    func mapping() throws {
      let url = try TestServer.freshURL()
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      context.insert(Team(name: "T"))
      context.insert(Captain(name: "C", since: 1))
      context.insert(Tag(label: "x"))
      try context.save()
      let tables = try TestServer.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1", at: url)
      #expect(
        tables == [
          "Captain", "Member", "Tag", "Team", "Team.members", "Team.tags", "mg_entities",
          "mg_listeners", "mg_log", "mg_state",
        ])
      let captainColumns = try TestServer.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
          + "AND table_name = 'Captain' ORDER BY ordinal_position", at: url)
      #expect(
        captainColumns.contains("name") && captainColumns.contains("since")
          && captainColumns.contains("team"))
      let constraints = try TestServer.query(
        "SELECT conname || ':' || contype::text FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
          + "WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = 'Team' ORDER BY 1",
        at: url)
      #expect(constraints.contains { $0?.hasSuffix(":u") == true })
      let foreign = try TestServer.query(
        "SELECT count(*) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
          + "WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = 'Member' AND contype = 'f'",
        at: url)
      #expect(foreign == ["1"])
    }
  }

  @Suite("Migration") struct Migration {
    @Test(
      "the same classes in another layout open without a plan; the tables are rewritten in one transaction"
    )
    func layoutRewrite() throws {
      let url = try TestServer.freshURL()
      var identifier: PersistentIdentifier?
      do {
        let context = ModelContext(try TestServer.container([FirstLayout.Note.self], at: url))
        let note = FirstLayout.Note()
        note.title = "kept"
        note.pages = 12
        context.insert(note)
        try context.save()
        identifier = note.persistentModelID
      }
      do {
        let context = ModelContext(try TestServer.container([SecondLayout.Note.self], at: url))
        let note = try #require(try context.fetch(FetchDescriptor<SecondLayout.Note>()).first)
        #expect(note.title == "kept" && note.pages == 12)
        #expect(note.persistentModelID == identifier)
      }
      let columns = try TestServer.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
          + "AND table_name = 'Note' ORDER BY ordinal_position", at: url)
      #expect(columns == ["id", "_version", "pages", "title"])
      let context = ModelContext(try TestServer.container([SecondLayout.Note.self], at: url))
      #expect(try context.fetch(FetchDescriptor<SecondLayout.Note>()).map(\.title) == ["kept"])
    }
  }

  @Suite("Errors") struct Errors {
    @Test("no server at the URL is an unreachable error")
    func unreachable() throws {
      let url = URL(string: "postgresql://postgres@/modelgraph?host=%2Fnonexistent%2Fsocket%2Fdir")!
      let error = #expect(throws: PostgreSQLError.self) {
        _ = try TestServer.container(teamTypes, at: url)
      }
      #expect(error?.code == .unreachable)
    }

    @Test("an unknown user is an authentication error")
    func badCredentials() throws {
      var components = URLComponents(string: TestServer.url!)!
      components.user = "nobody_here"
      let error = #expect(throws: PostgreSQLError.self) {
        _ = try TestServer.container(teamTypes, at: components.url!)
      }
      #expect(error?.code == .authenticationFailed)
    }

    @Test("a required attribute added without a default or a plan is refused, as on a file")
    func schemaMismatch() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container([Earlier.Gadget.self], at: url))
        let gadget = Earlier.Gadget()
        gadget.name = "g"
        context.insert(gadget)
        try context.save()
      }
      let error = #expect(throws: MigrationError.self) {
        _ = try TestServer.container([Later.Gadget.self], at: url)
      }
      // `weight` is required and has no default: no lightweight stage can fill it.
      #expect(error?.code == .notLightweight)
    }

    @Test(
      "a connection lost before a save: the save throws and is not applied; the next save reconnects"
    )
    func lostConnection() throws {
      let url = try TestServer.freshURL()
      let container = try TestServer.container(teamTypes, at: url)
      let store = try #require(container.store.persistence as? PostgreSQLStore)
      let context = ModelContext(container)
      context.insert(Team(name: "Before"))
      try context.save()
      // Nothing else uses the connection once the listener has caught up (and no other
      // container saves into this schema).
      #expect(eventually { store.isListening })
      _ = try TestServer.query("SELECT pg_terminate_backend(\(store.backendPID))", at: url)
      let team = try #require(try context.fetch(FetchDescriptor<Team>()).first)
      team.name = "Lost"
      context.insert(Team(name: "Also lost"))
      let error = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(error?.code == .connectionLost)
      #expect(try TestServer.query("SELECT name FROM \"Team\"", at: url) == ["Before"])
      try context.save()
      #expect(
        try TestServer.query("SELECT name FROM \"Team\" ORDER BY name", at: url) == [
          "Also lost", "Lost",
        ])
    }
  }
}
