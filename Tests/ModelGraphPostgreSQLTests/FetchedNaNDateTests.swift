import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Dates of a NaN interval in SQL: Swift derives `Date`'s `>=` and `<=` as `!(a < b)`, so a
  /// NaN date is `>=` and `<=` every date (and every date `>=` and `<=` it), while `<`, `>` and
  /// `==` never hold; the in-memory engine answers so, and the SQL a fetch runs in PostgreSQL
  /// must too.
  @Suite("Dates of a NaN interval") struct FetchedNaNDate {
    static let nanDate = Date(timeIntervalSinceReferenceDate: .nan)

    /// Members whose `joined` is a NaN date on every fourth row.
    static func seed(_ url: URL) throws {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      for index in 0..<24 {
        let member =
          index % 7 == 0
          ? Captain(name: "c\(index)", since: 2000 + index % 5) : Member(name: "m\(index)")
        member.joined =
          index % 4 == 0 ? nanDate : Date(timeIntervalSinceReferenceDate: Double(index % 6) * 100)
        context.insert(member)
      }
      try context.save()
    }

    static func descriptors() -> [(String, FetchDescriptor<Member>)] {
      let cutoff = Date(timeIntervalSinceReferenceDate: 200)
      let nan = nanDate
      var all: [(String, FetchDescriptor<Member>)] = []
      func add(_ name: String, _ predicate: Predicate<Member>) {
        all.append((name, FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])))
      }
      add("joined >= cutoff", #Predicate { $0.joined >= cutoff })
      add("joined <= cutoff", #Predicate { $0.joined <= cutoff })
      add("cutoff >= joined", #Predicate { cutoff >= $0.joined })
      add("cutoff <= joined", #Predicate { cutoff <= $0.joined })
      add("joined > cutoff", #Predicate { $0.joined > cutoff })
      add("joined < cutoff", #Predicate { $0.joined < cutoff })
      add("joined == cutoff", #Predicate { $0.joined == cutoff })
      add("joined >= a NaN date", #Predicate { $0.joined >= nan })
      add("joined <= a NaN date", #Predicate { $0.joined <= nan })
      add("joined < a NaN date", #Predicate { $0.joined < nan })
      add("not (joined >= cutoff)", #Predicate { !($0.joined >= cutoff) })
      add(
        "a conditional date <= cutoff",
        #Predicate { ($0.name < "m5" ? $0.joined : cutoff) <= cutoff })
      return all
    }

    @Test("fetch and fetchCount in SQL match the engine and Predicate.evaluate")
    func inclusiveBounds() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partial = ModelContext(
        try TestServer.container(
          teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      let everyone = try full.fetch(FetchDescriptor<Member>())
      #expect(everyone.count == 24)
      for (name, descriptor) in Self.descriptors() {
        let predicate = try #require(descriptor.predicate)
        let evaluated = try Set(everyone.filter { try predicate.evaluate($0) }.map(\.name))
        let engine = try full.fetch(descriptor).map(\.name)
        #expect(Set(engine) == evaluated, "\(name): the engine")
        let explained = try partial.explain(descriptor)
        #expect(!explained.contains("not in SQL"), "\(name): \(explained)")
        if name.hasPrefix("a conditional") {
          // A long operand is named once, in a subquery.
          #expect(explained.contains("mg_do"), "\(explained)")
        }
        #expect(try partial.fetch(descriptor).map(\.name) == engine, "\(name): SQL")
        #expect(try partial.fetchCount(descriptor) == engine.count, "\(name): SQL count")
      }
    }
  }
}
