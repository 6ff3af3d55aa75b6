import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Two servers that open one empty database before either saved (found by
  /// `ModelBasedFetchedTests`).
  @Suite("Two containers opened on an empty database") struct FetchedEmptyDatabase {
    @Test("a fetch reads what the other container saved first")
    func fetchReadsTheOtherFirstSave() throws {
      let url = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(try TestServer.freshURL())
      let writer = ModelContext(try TestServer.container(teamTypes, at: url))
      let reader = ModelContext(try TestServer.container(teamTypes, at: url))
      writer.insert(Team(name: "Red"))
      writer.insert(Captain(name: "Ann", since: 2020))
      try writer.save()
      #expect(try reader.fetch(FetchDescriptor<Team>()).map(\.name) == ["Red"])
      #expect(try reader.fetch(FetchDescriptor<Member>()).map(\.name) == ["Ann"])
      #expect(try reader.fetchCount(FetchDescriptor<Member>()) == 1)
    }
  }
}
