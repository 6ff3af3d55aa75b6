import Foundation
import ModelGraph
import Testing

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Integer arithmetic that overflows or divides by zero is `nil` in the engine; the SQL of
  /// a fetched-mode fetch agrees instead of failing the statement.
  @Suite("Arithmetic that overflows or divides by zero") struct FetchedArithmetic {
    static func descriptors() -> [(String, FetchDescriptor<Member>)] {
      let zero = 0
      let big = Int.max
      let small = Int.min
      var all: [(String, FetchDescriptor<Member>)] = []
      func add(_ name: String, _ predicate: Predicate<Member>) {
        all.append((name, FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])))
      }
      add("divided by a zero constant", #Predicate { $0.score / zero == 1 })
      add("not divided by a zero constant", #Predicate { !($0.score / zero == 1) })
      add("a remainder by a zero constant", #Predicate { $0.score % zero < 1 })
      add("divided by zero on some rows", #Predicate { $0.score / ($0.score - 3) > 0 })
      add("a remainder by zero on some rows", #Predicate { $0.score % ($0.score - 3) == 0 })
      add("a product that overflows", #Predicate { $0.score * big > 0 })
      add("a sum that overflows", #Predicate { $0.score + big >= big })
      add("a difference that overflows", #Predicate { small - $0.score <= small })
      add("Int.min divided by -1", #Predicate { (small + $0.score) / -1 > 0 })
      add("Int.min remainder by -1", #Predicate { (small + $0.score) % -1 == 0 })
      add("Int.min negated", #Predicate { -(small + $0.score) > 0 })
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { 100 / ($0.score - 5) > 10 || $0.score * big < 0 },
        sortBy: [SortDescriptor(\.score, order: .reverse)])
      top.fetchLimit = 4
      all.append(("a window over a quotient by zero", top))
      return all
    }

    @Test("both modes select the same objects, and the SQL is run whole")
    func differential() throws {
      let url = try TestServer.freshURL()
      try PostgreSQLStoreSuites.FetchedResidency.seed(url, members: 30)
      let full = ModelContext(try TestServer.container(teamTypes, at: url))
      let partialContainer = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(\.persistentModelID)
        let partial = ModelContext(partialContainer)
        #expect(try !partial.explain(descriptor).contains("not in SQL"), "\(name)")
        #expect(try partial.fetchCount(descriptor) == expected.count, "\(name)")
        #expect(try partial.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
      }
    }
  }
}
