import Foundation
import Testing

@testable import ModelGraphPostgreSQL

@Suite("Commit tokens") struct CommitTokenTests {
  @Test("a commit token is a version-4 UUID, new on every call")
  func randomVersion4() throws {
    var seen = Set<String>()
    for _ in 0..<1_000 {
      let token = PostgreSQLStore.commitToken()
      let uuid = try #require(UUID(uuidString: token)).uuid
      #expect(uuid.6 >> 4 == 4, "version nibble of \(token)")
      #expect(uuid.8 >> 6 == 0b10, "variant bits of \(token)")
      seen.insert(token)
    }
    #expect(seen.count == 1_000)
  }
}
