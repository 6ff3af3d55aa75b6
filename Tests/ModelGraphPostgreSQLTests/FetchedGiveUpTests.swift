import Foundation
import Testing

@testable import ModelGraph
@testable import ModelGraphPostgreSQL

/// A mentor of one member, a to-one relationship without inverse: memory cannot name the
/// mentors of a member, so a fetch of mentors with unsaved changes selects them in the
/// database by the members it changed.
class Mentor: PersistentModel {
  @Attribute var name: String
  @Relationship var mentee: Member?

  convenience init(name: String, mentee: Member?) {
    self.init()
    self.name = name
    self.mentee = mentee
  }
}

/// The classes of the team schema with mentors.
let mentorTypes: [any PersistentModel.Type] = teamTypes + [Mentor.self]

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch with unsaved changes that gives up when saves made elsewhere keep changing what
  /// its SQL selects.
  @Suite("A fetch gives up when saves keep changing what it selects") struct FetchedGiveUp {
    /// Mentors with a mentee scoring above 20, by name.
    static var mentored: FetchDescriptor<Mentor> {
      FetchDescriptor<Mentor>(
        predicate: #Predicate { ($0.mentee?.score ?? 0) > 20 }, sortBy: [SortDescriptor(\.name)])
    }

    /// A fresh database with members p0…p39 (scored by their number), mentors m0…m39 (`mi`
    /// mentoring `pi`) and empty teams t0…t2; a fetched-mode context there that deleted t1
    /// (last writer wins), and a full container elsewhere.
    static func contexts() throws -> (partial: ModelContext, elsewhere: ModelContext, url: URL) {
      let url = try TestServer.freshURL()
      let seeding = ModelContext(try TestServer.container(mentorTypes, at: url))
      for index in 0..<40 {
        let member = Member(name: "p\(index)", score: index)
        seeding.insert(member)
        seeding.insert(Mentor(name: "m\(index)", mentee: member))
      }
      for index in 0..<3 { seeding.insert(Team(name: "t\(index)")) }
      try seeding.save()
      let partial = ModelContext(
        try TestServer.container(
          mentorTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)))
      partial.mergePolicy = .lastWriterWins
      partial.delete(try FetchedElsewhere.team("t1", in: partial))
      return (partial, ModelContext(try TestServer.container(mentorTypes, at: url)), url)
    }

    @Test("a fetch gives up after eight SQL runs when every move cascades onto a new mentee")
    func givesUpAfterEightRuns() throws {
      let (partial, elsewhere, url) = try Self.contexts()
      // Before each SQL run, elsewhere adds to t1 a member jN scoring 100 + N, with a mentor
      // nN. The move replays the deletion of t1, whose cascade deletes jN in the context: nN
      // matches in the database but not in the context's view, and, as no inverse names it,
      // the SQL must select it by its mentee, a new one on every run.
      // Each save also renames t0 (t0.N), which the context read before the fetch: what it
      // reads of t0 tells the version it is at.
      let t0 = try FetchedElsewhere.team("t0", in: partial)
      let deleted = partial.deletedModelsArray.map(\.persistentModelID)
      #expect(deleted.count == 1)
      let runs = FetchedAttempts.Attempts()
      partial.fetchedStepHook = { step in
        guard case .sql(let attempt) = step else { return }
        runs.numbers.append(attempt)
        let joined = Member(name: "j\(attempt)", score: 100 + attempt)
        elsewhere.insert(joined)
        joined.team = try FetchedElsewhere.team("t1", in: elsewhere)
        elsewhere.insert(Mentor(name: "n\(attempt)", mentee: joined))
        try FetchedElsewhere.team(attempt == 1 ? "t0" : "t0.\(attempt - 1)", in: elsewhere).name =
          "t0.\(attempt)"
        try elsewhere.save()
      }
      let error = #expect(throws: PostgreSQLError.self) { _ = try partial.fetch(Self.mentored) }
      partial.fetchedStepHook = nil
      #expect(error?.code == .server)
      #expect(
        error?.message
          == "other saves kept changing the objects a fetch with unsaved changes reads "
          + "(8 attempts): the context is as it was before the fetch; try again")
      #expect(runs.numbers == Array(1...8))
      // The context is as it was before the fetch: at the version it had read (t0 keeps its
      // name there), its one unsaved change the deletion of t1 (no member j1…j8 deleted by
      // its cascade replayed onto newer versions), and no other object changed.
      #expect(t0.name == "t0")
      #expect(partial.hasChanges)
      #expect(partial.deletedModelsArray.map(\.persistentModelID) == deleted)
      #expect(partial.insertedModelsArray.isEmpty && partial.changedModelsArray.isEmpty)
      // A fetch moves it on, with the deletion still unsaved: t1 is gone in the context only.
      #expect(
        try partial.fetch(FetchDescriptor<Team>(sortBy: [SortDescriptor(\.name)])).map(\.name)
          == ["t0.8", "t2"])
      #expect(try TestServer.query("SELECT count(*)::text FROM \"Team\"", at: url) == ["3"])
      // Without the saves, the fetch settles: n1…n8 mentor members the cascade deletes here.
      let names = try partial.fetch(Self.mentored).map(\.name)
      #expect(names == (21..<40).map { "m\($0)" }.sorted())
      let everywhere = try elsewhere.fetch(Self.mentored).map(\.name)
      #expect(everywhere == ((21..<40).map { "m\($0)" } + (1...8).map { "n\($0)" }).sorted())
      #expect(partial.hasChanges)
    }

    @Test("a save that only changes which objects the SQL selects does not make it run again")
    func settlesWhenOnlyTheSelectionChanges() throws {
      let (partial, elsewhere, _) = try Self.contexts()
      // Before each SQL run, elsewhere moves p(N+20) out of the selection. The check after the
      // move compares the context's pending rows and the conjuncts the SQL selects by, not the
      // objects the database holds, so the fetch settles on its first run.
      let runs = FetchedAttempts.Attempts()
      partial.fetchedStepHook = { step in
        guard case .sql(let attempt) = step else { return }
        runs.numbers.append(attempt)
        try FetchedElsewhere.member(20 + attempt, in: elsewhere).score = 0
        try elsewhere.save()
      }
      let names = try partial.fetch(Self.mentored).map(\.name)
      partial.fetchedStepHook = nil
      #expect(runs.numbers == [1])
      #expect(names == (22..<40).map { "m\($0)" }.sorted())
      #expect(partial.hasChanges)
    }
  }
}
