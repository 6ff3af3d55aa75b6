import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// A store opened with `residency=fetched` keeps only fetched objects in memory and runs
  /// every fetch in PostgreSQL first.
  @Suite("Only fetched objects in memory") struct FetchedResidency {
    /// `url` with `residency=fetched` added to its query.
    static func fetchedOnly(_ url: URL) -> URL {
      URL(string: url.absoluteString + "&residency=fetched")!
    }

    /// Members with varied values (some `NaN` ratings, equal scores, missing badges), a few
    /// captains, two teams.
    static func seed(_ url: URL, members: Int = 60) throws {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      let red = Team(name: "Red")
      let blue = Team(name: "Blue")
      context.insert(red)
      context.insert(blue)
      var redMembers: [Member] = []
      for index in 0..<members {
        let member: Member =
          index % 7 == 0
          ? Captain(name: "c\(index % 11)", since: 2000 + index % 5)
          : Member(
            name: index % 4 == 0 ? "Zo\u{308}e \(index % 9)" : "m\(index % 13)", score: index % 10)
        member.rating = index % 9 == 0 ? .nan : Double(index % 6) / 2
        member.badge = index % 3 == 0 ? nil : UUID()
        member.flags = UInt(index % 5)
        member.active = index % 2 == 0
        member.joined = Date(timeIntervalSinceReferenceDate: Double(index % 8) * 1000)
        context.insert(member)
        if index % 5 == 0 { redMembers.append(member) }
      }
      red.members = redMembers
      try context.save()
    }

    /// The descriptors both stores must answer alike.
    static func descriptors() -> [(String, FetchDescriptor<Member>)] {
      var all: [(String, FetchDescriptor<Member>)] = []
      func add(_ name: String, _ descriptor: FetchDescriptor<Member>) {
        all.append((name, descriptor))
      }
      add("everything", FetchDescriptor())
      add("sorted by name", FetchDescriptor(sortBy: [SortDescriptor(\.name)]))
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { $0.score > 3 }, sortBy: [SortDescriptor(\.score, order: .reverse)])
      top.fetchLimit = 5
      add("top scores (ties at the limit)", top)
      var window = FetchDescriptor<Member>(sortBy: [
        SortDescriptor(\.name), SortDescriptor(\.score),
      ])
      window.fetchOffset = 7
      window.fetchLimit = 6
      add("a window by name, score", window)
      var ratings = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.rating)])
      ratings.fetchLimit = 8
      add("lowest ratings (NaN among them)", ratings)
      add(
        "rating equal to NaN-free value",
        FetchDescriptor(predicate: #Predicate { $0.rating == 1.5 }))
      add("rating not 1.5", FetchDescriptor(predicate: #Predicate { $0.rating != 1.5 }))
      add("no badge", FetchDescriptor(predicate: #Predicate { $0.badge == nil }))
      add("a name, canonically", FetchDescriptor(predicate: #Predicate { $0.name == "Zo\u{eb} 4" }))
      add(
        "names before m5", FetchDescriptor(predicate: #Predicate { $0.name < "m5" && $0.active }))
      add(
        "not (score < 5 or flags == 2)",
        FetchDescriptor(predicate: #Predicate { !($0.score < 5 || $0.flags == 2) }))
      var unsorted = FetchDescriptor<Member>(predicate: #Predicate { $0.score >= 2 })
      unsorted.fetchLimit = 4
      unsorted.fetchOffset = 3
      add("a window without a sort", unsorted)
      var shallow = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.joined, order: .reverse)])
      shallow.includesSubclasses = false
      shallow.fetchLimit = 9
      add("members only, latest joined", shallow)
      add(
        "a prefix (left to the engine)",
        FetchDescriptor(predicate: #Predicate { $0.name.starts(with: "c") }))
      var prefixTop = FetchDescriptor<Member>(
        predicate: #Predicate { $0.name.starts(with: "m") && $0.score > 1 },
        sortBy: [SortDescriptor(\.score)])
      prefixTop.fetchLimit = 3
      add("a prefix with a limit", prefixTop)
      add(
        "arithmetic",
        FetchDescriptor(predicate: #Predicate { $0.score * 2 - 1 > 9 && -$0.score < -2 }))
      add("on a team", FetchDescriptor(predicate: #Predicate { $0.team?.name == "Red" }))
      add("on no team", FetchDescriptor(predicate: #Predicate { $0.team == nil && $0.score < 4 }))
      var teamTop = FetchDescriptor<Member>(
        predicate: #Predicate { $0.team != nil }, sortBy: [SortDescriptor(\.name)])
      teamTop.fetchLimit = 3
      add("first names on a team", teamTop)
      return all
    }

    @Test("the same fetches give the same objects, in the same order, in both modes")
    func differential() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partial = ModelContext(try TestServer.container(teamTypes, at: Self.fetchedOnly(url)))
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(\.persistentModelID)
        // Everything but the string prefix tests compiles to SQL whole.
        let fallsBack = try partial.explain(descriptor).contains("not in SQL:")
        #expect(fallsBack == name.hasPrefix("a prefix"), "\(name)")
        let fresh = ModelContext(
          try TestServer.container(teamTypes, at: Self.fetchedOnly(url)))
        #expect(try fresh.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
        // And with whatever earlier fetches left in memory.
        #expect(try partial.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
        #expect(try partial.fetchCount(descriptor) == expected.count, "\(name)")
      }
      let captains = try partial.fetch(FetchDescriptor<Captain>(sortBy: [SortDescriptor(\.since)]))
      #expect(
        captains.map(\.persistentModelID)
          == (try full.fetch(FetchDescriptor<Captain>(sortBy: [SortDescriptor(\.since)])))
          .map(\.persistentModelID))
    }

    @Test("explain shows the SQL, and what is left to the engine")
    func explain() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url, members: 3)
      let context = ModelContext(try TestServer.container(teamTypes, at: Self.fetchedOnly(url)))
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { $0.score > 3 }, sortBy: [SortDescriptor(\.score)])
      top.fetchLimit = 5
      let text = try context.explain(top)
      #expect(text.contains("sql: WITH q AS (SELECT id, t.\"score\" AS k0 FROM \"Member\" t WHERE"))
      #expect(text.contains("UNION ALL SELECT id, t.\"score\" AS k0 FROM \"Captain\" t"))
      #expect(text.contains("FETCH FIRST 5 ROWS WITH TIES"))
      #expect(!text.contains("not in SQL") && !text.contains("fallback"))
      var shallow = FetchDescriptor<Member>()
      shallow.includesSubclasses = false
      let one = try context.explain(shallow)
      #expect(one.contains("sql: SELECT id FROM \"Member\" t"))
      #expect(!one.contains("Captain\" t"))
      let prefix = try context.explain(
        FetchDescriptor<Member>(predicate: #Predicate { $0.name.starts(with: "c") }))
      #expect(prefix.contains("not in SQL:") && !prefix.contains("fallback"))
      // explain loads nothing.
      #expect(try residentCount(context.container, "Member") == 0)
    }

    /// The live objects of `entity` in the container's store.
    func residentCount(_ container: ModelContainer, _ entity: String) throws -> Int {
      let version = container.store.version
      let index = try #require(version.catalog.entity(named: entity)).index
      return version.tables[index].liveCount
    }

    @Test("a fetch brings into memory what it returns and what that reaches, not the table")
    func onlyWhatWasFetched() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container(teamTypes, at: url))
        for index in 0..<500 { context.insert(Member(name: "n\(index)", score: index)) }
        let team = Team(name: "Small")
        context.insert(team)
        let far = Member(name: "far", score: -1)
        context.insert(far)
        team.members = [far, Member(name: "near", score: -2)]
        try context.save()
      }
      let container = try TestServer.container(teamTypes, at: Self.fetchedOnly(url))
      let context = ModelContext(container)
      #expect(try residentCount(container, "Member") == 0)
      var top = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score, order: .reverse)])
      top.fetchLimit = 10
      let best = try context.fetch(top)
      #expect(best.map(\.score) == Array((490..<500).reversed()))
      #expect(try residentCount(container, "Member") == 10)
      #expect(try residentCount(container, "Team") == 0)
      // The object fetched brings its team, and the team its members.
      let lowest = try #require(
        try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == -1 })).first)
      #expect(lowest.team?.name == "Small")
      #expect(lowest.team?.members.map(\.name) == ["far", "near"])
      #expect(try residentCount(container, "Member") == 12)
      // An identifier from elsewhere finds its object, as in a fully loaded store.
      let elsewhere = try ModelContext(TestServer.container(teamTypes, at: url)).fetch(
        FetchDescriptor<Member>(predicate: #Predicate { $0.name == "n7" }))[0].persistentModelID
      let found = try #require(context.model(for: elsewhere) as? Member)
      #expect(found.score == 7)
      #expect(try residentCount(container, "Member") == 13)
      // PostgreSQL counts; nothing more is read.
      #expect(try context.fetchCount(FetchDescriptor<Member>()) == 502)
      var window = FetchDescriptor<Member>(predicate: #Predicate { $0.score >= 100 })
      window.fetchOffset = 10
      window.fetchLimit = 500
      #expect(try context.fetchCount(window) == 390)
      #expect(try residentCount(container, "Member") == 13)
      // A count the SQL cannot give whole reads the candidates.
      #expect(
        try context.fetchCount(
          FetchDescriptor<Member>(predicate: #Predicate { $0.name.starts(with: "n4") })) == 111)
      #expect(try residentCount(container, "Member") == 502)
    }

    @Test("saves, conflicts and other servers' saves work on fetched objects")
    func savesAndPropagation() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url, members: 20)
      let partialContainer = try TestServer.container(teamTypes, at: Self.fetchedOnly(url))
      let fullContainer = try TestServer.container(teamTypes, at: url)
      let partial = ModelContext(partialContainer)
      let mine = try #require(
        try partial.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == "m1" })).first)
      mine.score = 42
      let added = Member(name: "new", score: 7)
      partial.insert(added)
      // A fetch with unsaved changes sees them.
      let seen = try partial.fetch(
        FetchDescriptor<Member>(predicate: #Predicate { $0.score == 42 || $0.score == 7 }))
      #expect(seen.contains { $0 === mine } && seen.contains { $0 === added })
      try partial.save()
      let full = ModelContext(fullContainer)
      #expect(
        try eventually {
          try full.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 42 }))
            .map(\.name) == ["m1"]
        })
      // Another server changes a resident object and inserts one: the change arrives, the
      // new object is found by the next fetch.
      let theirs = try #require(
        try full.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == "m1" })).first)
      theirs.score = 43
      full.insert(Member(name: "theirs", score: 8))
      try full.save()
      #expect(
        try eventually {
          let reader = ModelContext(partialContainer)
          return try reader.fetch(
            FetchDescriptor<Member>(predicate: #Predicate { $0.score == 43 || $0.name == "theirs" })
          ).map(\.name).sorted() == ["m1", "theirs"]
        })
      // Another server points a resident object at a new team: the team (and its members)
      // come into memory with the change, so the relationship never reads a missing object.
      let team = Team(name: "Green")
      full.insert(team)
      theirs.team = team
      try full.save()
      #expect(
        eventually {
          let reader = ModelContext(partialContainer)
          let member = reader.model(for: mine.persistentModelID) as? Member
          return member?.team?.name == "Green" && member?.team?.members.count == 1
        })
      // A stale save of that object is refused with the usual conflict.
      let stale = ModelContext(partialContainer)
      let object = try #require(
        try stale.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == "theirs" }))
          .first)
      let other = try #require(
        try full.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.name == "theirs" })).first
      )
      other.score = 100
      try full.save()
      object.score = 200
      let conflict = #expect(throws: ModelError.self) { try stale.save() }
      #expect(conflict?.code == .conflict)
      #expect(
        try TestServer.query("SELECT score FROM \"Member\" WHERE name = 'theirs'", at: url)
          == ["100"])
    }
  }
}
