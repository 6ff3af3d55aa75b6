import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites {
  /// A save signals the schema's channel only when a container other than its own listens.
  @Suite("Notifications") struct Notifications {
    @Test(
      "a save with no other container listening sends no signal; one that starts listening reads it and hears the next"
    )
    func onlyOtherListenersAreSignalled() throws {
      let url = try TestServer.freshURL()
      let first = try TestServer.container(teamTypes, at: url)
      let store = try #require(first.store.persistence as? PostgreSQLStore)
      #expect(eventually { store.isListening })
      // A bare connection on the channel, which no container registered: it hears only what
      // the saves send.
      let bare = try PostgreSQLConnection(url.absoluteString)
      defer { bare.close() }
      _ = try bare.run("LISTEN \(store.channel)")
      let writer = ModelContext(first)
      let member = Member(name: "a", score: 0)
      writer.insert(member)
      try writer.save()
      let second = try TestServer.container(teamTypes, at: url)
      let other = try #require(second.store.persistence as? PostgreSQLStore)
      #expect(eventually { other.isListening })
      #expect(try ModelContext(second).fetchCount(FetchDescriptor<Member>()) == 1)
      member.score = 1
      try writer.save()
      var heard: [Int32] = []
      #expect(
        eventually {
          heard += (try? bare.drainNotifications()) ?? []
          return !heard.isEmpty
        })
      // Notifications arrive in commit order: had the first save sent one, it came first.
      #expect(heard == [store.backendPID])
      #expect(
        eventually {
          (try? ModelContext(second).fetch(FetchDescriptor<Member>()).first?.score) == 1
        })
    }
  }
}
