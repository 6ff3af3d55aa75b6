import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// Two containers on one database stand for two app servers.
  @Suite("Two app servers") struct TwoServers {
    @Test("a save in one container reaches the other as a new version, and its observers")
    func propagation() async throws {
      let url = try TestServer.freshURL()
      let first = try TestServer.container(teamTypes, at: url)
      let second = try TestServer.container(teamTypes, at: url)
      let changes = second.store.changes()
      let writer = ModelContext(first)
      let team = Team(name: "Shared")
      writer.insert(team)
      team.members = [Member(name: "Fa")]
      try writer.save()
      let seen = try eventually {
        try ModelContext(second).fetchCount(FetchDescriptor<Team>()) == 1
      }
      #expect(seen)
      var iterator = changes.makeAsyncIterator()
      let change = try #require(await iterator.next())
      #expect(Set(change.inserted) == [team.persistentModelID, team.members[0].persistentModelID])
      let reader = ModelContext(second)
      let read = try #require(try reader.fetch(FetchDescriptor<Team>()).first)
      #expect(read.persistentModelID == team.persistentModelID)
      #expect(read.members.map(\.name) == ["Fa"])
      team.members[0].score = 5
      writer.delete(team)
      try writer.save()
      #expect(
        try eventually { try ModelContext(second).fetchCount(FetchDescriptor<Member>()) == 0 })
    }

    @Test("both servers change the same attribute: the later save is refused with a conflict")
    func conflict() throws {
      let url = try TestServer.freshURL()
      let first = try TestServer.container(teamTypes, at: url)
      let second = try TestServer.container(teamTypes, at: url)
      let seed = ModelContext(first)
      let member = Member(name: "Gi")
      seed.insert(member)
      try seed.save()
      #expect(
        try eventually { try ModelContext(second).fetchCount(FetchDescriptor<Member>()) == 1 })
      let one = ModelContext(first)
      let two = ModelContext(second)
      let mine = try #require(try one.fetch(FetchDescriptor<Member>()).first)
      let theirs = try #require(try two.fetch(FetchDescriptor<Member>()).first)
      mine.score = 1
      theirs.score = 2
      try one.save()
      let error = #expect(throws: ModelError.self) { try two.save() }
      #expect(error?.code == .conflict)
      #expect(error?.conflicts.count == 1)
      #expect(try TestServer.query("SELECT score FROM \"Member\"", at: url) == ["1"])
    }

    @Test("both servers change different objects: both saves land, and each sees the other's")
    func disjointSaves() throws {
      let url = try TestServer.freshURL()
      let first = try TestServer.container(teamTypes, at: url)
      let second = try TestServer.container(teamTypes, at: url)
      let seed = ModelContext(first)
      seed.insert(Member(name: "Ha"))
      seed.insert(Member(name: "Io"))
      try seed.save()
      #expect(
        try eventually { try ModelContext(second).fetchCount(FetchDescriptor<Member>()) == 2 })
      let one = ModelContext(first)
      let two = ModelContext(second)
      let byName = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)])
      try one.fetch(byName)[0].score = 10
      try two.fetch(byName)[1].score = 20
      try one.save()
      try two.save()
      context: for container in [first, second] {
        let scores = { try ModelContext(container).fetch(byName).map(\.score) }
        #expect(try eventually { try scores() == [10, 20] })
        continue context
      }
      #expect(
        try TestServer.query("SELECT score FROM \"Member\" ORDER BY name", at: url) == ["10", "20"])
    }

    @Test("new objects made on both servers at once get distinct identifiers")
    func distinctIdentifiers() throws {
      let url = try TestServer.freshURL()
      let first = try TestServer.container(teamTypes, at: url)
      let second = try TestServer.container(teamTypes, at: url)
      let one = ModelContext(first)
      let two = ModelContext(second)
      for index in 0..<50 {
        one.insert(Member(name: "one \(index)"))
        two.insert(Member(name: "two \(index)"))
      }
      try one.save()
      try two.save()
      let ids = try TestServer.query("SELECT count(DISTINCT id) FROM \"Member\"", at: url)
      #expect(ids == ["100"])
      #expect(
        try eventually { try ModelContext(first).fetchCount(FetchDescriptor<Member>()) == 100 })
      let identifiers = try ModelContext(first).fetch(FetchDescriptor<Member>()).map(
        \.persistentModelID)
      #expect(Set(identifiers).count == 100)
    }
  }
}
