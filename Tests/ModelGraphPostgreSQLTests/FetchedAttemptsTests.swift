import Foundation
import Testing

@testable import ModelGraph

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch with unsaved changes whose move onto the loaded data keeps changing other rows,
  /// because another container saves between its attempts.
  @Suite("Unsaved changes while saves keep arriving") struct FetchedAttempts {
    /// A fetched-mode context that deleted the empty team t1 (last writer wins), and a
    /// container elsewhere that, before each of the context's SQL runs, adds a member with
    /// score 100 + the attempt's number to t1: each move then replays the deletion's cascade
    /// over the newest member, which the SQL's window had counted as one of its places.
    /// The numbers of the attempts a fetch made.
    final class Attempts {
      var numbers: [Int] = []
    }

    static func joinedOnEveryAttempt() throws -> (ModelContext, Attempts) {
      let (partial, elsewhere) = try FetchedMove.contexts()
      partial.mergePolicy = .lastWriterWins
      partial.delete(try FetchedElsewhere.team("t1", in: partial))
      let attempts = Attempts()
      partial.fetchedStepHook = { step in
        guard case .sql(let attempt) = step else { return }
        attempts.numbers.append(attempt)
        let joined = Member(name: "j\(attempt)", score: 100 + attempt)
        elsewhere.insert(joined)
        joined.team = try FetchedElsewhere.team("t1", in: elsewhere)
        try elsewhere.save()
      }
      return (partial, attempts)
    }

    @Test("a fetch window keeps its objects when every move cascades onto a new object")
    func windowWhileMovesKeepChanging() throws {
      let (partial, attempts) = try Self.joinedOnEveryAttempt()
      var top = FetchDescriptor<Member>(
        predicate: #Predicate { $0.score > 20 },
        sortBy: [SortDescriptor(\Member.score, order: .reverse)])
      top.fetchLimit = 5
      let names = try partial.fetch(top).map { $0.name }
      partial.fetchedStepHook = nil
      // Every joined member is deleted here by the cascade; p35…p39 are the five highest left.
      #expect(names == ["p39", "p38", "p37", "p36", "p35"])
      #expect(attempts.numbers.count >= 3)
      #expect(try partial.fetch(top).map { $0.name } == names)
    }

    @Test("fetchCount agrees with fetch when every move cascades onto a new object")
    func countWhileMovesKeepChanging() throws {
      let (partial, _) = try Self.joinedOnEveryAttempt()
      let above = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 20 })
      let counted = try partial.fetchCount(above)
      partial.fetchedStepHook = nil
      #expect(counted == 19)
      #expect(try partial.fetch(above).count == 19)
    }
  }
}
