import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch with unsaved changes whose predicate reads related objects more than one
  /// relationship deep, or through a relationship without inverse: the same answers as in
  /// full mode.
  @Suite("Fetches through paths of relationships with unsaved changes") struct FetchedDeep {
    /// The cities of the sites, made once each.
    static let cities = ["Oslo", "Rome", "Lima"]

    /// Firms f0…f7, firm `i` with `i % 3 + 1` branches `b<i>_<j>`, branch `j` with
    /// `(i + 2j) % 4` workers `w<i>_<j>_<k>` scored `i + j + k`, at site `(i + j) % 4` (none
    /// for 3).
    static func seed(_ url: URL) throws {
      let container = try TestServer.container(firmTypes, at: url)
      defer { container.store.persistence?.close() }
      let context = ModelContext(container)
      let sites = cities.map { Site(city: $0) }
      for site in sites { context.insert(site) }
      for index in 0..<8 {
        let firm = Firm(name: "f\(index)")
        context.insert(firm)
        firm.branches = (0..<(index % 3 + 1)).map { place in
          let branch = Branch(name: "b\(index)_\(place)")
          branch.site = (index + place) % 4 == 3 ? nil : sites[(index + place) % 4]
          branch.workers = (0..<((index + 2 * place) % 4)).map {
            Worker(name: "w\(index)_\(place)_\($0)", score: index + place + $0)
          }
          return branch
        }
      }
      try context.save()
    }

    /// The object of class `T` whose `name` (or `city`) is `value`.
    static func named<T: PersistentModel>(
      _ context: ModelContext, _ predicate: Predicate<T>
    ) throws -> T {
      try #require(try context.fetch(FetchDescriptor<T>(predicate: predicate)).first)
    }

    /// Unsaved changes on each side of `Firm.branches`/`Branch.firm` and
    /// `Branch.workers`/`Worker.branch`: inserts, deletions (with a cascade and a nullify),
    /// moves from either side, values at each level; `Branch.site` (no inverse) re-pointed
    /// at a new site, at another saved site and at none. No saved site changes.
    static func change(_ context: ModelContext) throws {
      func firm(_ name: String) throws -> Firm {
        try named(context, #Predicate { $0.name == name })
      }
      func branch(_ name: String) throws -> Branch {
        try named(context, #Predicate { $0.name == name })
      }
      func worker(_ name: String) throws -> Worker {
        try named(context, #Predicate { $0.name == name })
      }
      try firm("f1").name = "renamed"
      try branch("b2_0").firm = try firm("f3")
      let four = try firm("f4")
      four.branches = four.branches + [try branch("b5_0")]
      try worker("w7_0_0").branch = try branch("b1_1")
      let roomy = try branch("b2_2")
      roomy.workers = roomy.workers + [try worker("w5_1_0")]
      let joining = Worker(name: "new w", score: 50)
      context.insert(joining)
      joining.branch = try branch("b0_0")
      context.delete(try worker("w3_0_1"))
      context.delete(try branch("b5_2"))
      context.delete(try firm("f6"))
      try worker("w1_1_2").score = 99
      try branch("b4_1").name = "hot"
      let fresh = Firm(name: "new f")
      context.insert(fresh)
      let opened = Branch(name: "new b")
      opened.site = try named(context, #Predicate<Site> { $0.city == "Rome" })
      opened.workers = [Worker(name: "new b w0", score: 40), Worker(name: "new b w1", score: 41)]
      fresh.branches = [opened]
      let oslo = Site(city: "Oslo")
      context.insert(oslo)
      try branch("b7_1").site = oslo
      try branch("b1_0").site = nil
      try branch("b7_0").site = try named(context, #Predicate<Site> { $0.city == "Lima" })
    }

    /// ``change(_:)`` and changes to saved sites, which no branch's inverse names: one
    /// renamed, one deleted.
    static func changeSites(_ context: ModelContext) throws {
      try change(context)
      try named(context, #Predicate<Site> { $0.city == "Rome" }).city = "Oslo"
      context.delete(try named(context, #Predicate<Site> { $0.city == "Lima" }))
    }

    /// The worker fetches compared.
    static func workerDescriptors() -> [(String, FetchDescriptor<Worker>)] {
      var all: [(String, FetchDescriptor<Worker>)] = []
      let byName = [SortDescriptor(\Worker.name)]
      for name in ["f3", "renamed", "f4", "new f"] {
        all.append(
          (
            "firm \(name)",
            FetchDescriptor(predicate: #Predicate { $0.branch?.firm?.name == name }, sortBy: byName)
          ))
      }
      for (offset, limit) in [(0, 2), (1, 2)] {
        for reverse in [false, true] {
          var window = FetchDescriptor<Worker>(
            predicate: #Predicate { $0.branch?.firm?.name != "f0" },
            sortBy: [SortDescriptor(\Worker.name, order: reverse ? .reverse : .forward)])
          (window.fetchOffset, window.fetchLimit) = (offset, limit)
          all.append(("not f0 \(reverse) \(offset) \(limit)", window))
        }
      }
      var saved = FetchDescriptor<Worker>(
        predicate: #Predicate { $0.branch?.firm?.name == "f4" }, sortBy: byName)
      (saved.fetchLimit, saved.includePendingChanges) = (2, false)
      all.append(("firm f4, saved ones", saved))
      all.append(
        (
          "firm with many branches",
          FetchDescriptor(
            predicate: #Predicate { ($0.branch?.firm?.branches.count ?? 0) > 2 }, sortBy: byName)
        ))
      all.append(
        (
          "busy branch",
          FetchDescriptor(
            predicate: #Predicate { ($0.branch?.workers.count ?? 0) > 2 }, sortBy: byName)
        ))
      all.append(
        (
          "in Oslo",
          FetchDescriptor(predicate: #Predicate { $0.branch?.site?.city == "Oslo" }, sortBy: byName)
        ))
      var oslo = FetchDescriptor<Worker>(
        predicate: #Predicate { $0.branch?.site?.city == "Oslo" },
        sortBy: [SortDescriptor(\Worker.score), SortDescriptor(\Worker.name)])
      (oslo.fetchOffset, oslo.fetchLimit) = (1, 3)
      all.append(("in Oslo, a window", oslo))
      all.append(
        (
          "branch without site",
          FetchDescriptor(
            predicate: #Predicate { $0.branch != nil && $0.branch?.site == nil }, sortBy: byName)
        ))
      return all
    }

    /// The firm fetches compared.
    static func firmDescriptors() -> [(String, FetchDescriptor<Firm>)] {
      var all: [(String, FetchDescriptor<Firm>)] = []
      let byName = [SortDescriptor(\Firm.name)]
      let high = #Predicate<Firm> { firm in
        firm.branches.contains { branch in branch.workers.contains { $0.score > 8 } }
      }
      all.append(("high scorer", FetchDescriptor(predicate: high, sortBy: byName)))
      for reverse in [false, true] {
        var window = FetchDescriptor<Firm>(
          predicate: high,
          sortBy: [SortDescriptor(\Firm.name, order: reverse ? .reverse : .forward)])
        (window.fetchOffset, window.fetchLimit) = (1, 2)
        all.append(("high scorer \(reverse) 1 2", window))
      }
      all.append(
        (
          "busy branch",
          FetchDescriptor(
            predicate: #Predicate { $0.branches.contains { $0.workers.count > 2 } }, sortBy: byName)
        ))
      all.append(
        (
          "every branch staffed",
          FetchDescriptor(
            predicate: #Predicate {
              $0.branches.count > 0 && $0.branches.allSatisfy { $0.workers.count > 0 }
            },
            sortBy: byName)
        ))
      all.append(
        (
          "in Oslo",
          FetchDescriptor(
            predicate: #Predicate { $0.branches.contains { $0.site?.city == "Oslo" } },
            sortBy: byName)
        ))
      return all
    }

    /// The branch fetches compared.
    static func branchDescriptors() -> [(String, FetchDescriptor<Branch>)] {
      let byName = [SortDescriptor(\Branch.name)]
      return [
        (
          "in Oslo",
          FetchDescriptor(predicate: #Predicate { $0.site?.city == "Oslo" }, sortBy: byName)
        ),
        (
          "firm with siblings",
          FetchDescriptor(
            predicate: #Predicate { ($0.firm?.branches.count ?? 0) > 1 }, sortBy: byName)
        ),
        (
          "a high scorer's firm",
          FetchDescriptor(
            predicate: #Predicate { branch in
              branch.firm?.branches.contains { $0.workers.contains { $0.score > 8 } } ?? false
            },
            sortBy: byName)
        ),
      ]
    }

    /// Compares every descriptor's fetch and count in fetched mode, from a cold container and
    /// with what earlier fetches loaded, with full mode's, after `change`.
    func compare<T: PersistentModel>(
      _ descriptors: [(String, FetchDescriptor<T>)], url: URL,
      change: (ModelContext) throws -> Void, label: (T) -> String
    ) throws {
      // Each container is closed once used: the suites share the server's connections.
      let fullContainer = try TestServer.container(firmTypes, at: url)
      defer { fullContainer.store.persistence?.close() }
      let full = ModelContext(fullContainer)
      try change(full)
      let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
      let warmContainer = try TestServer.container(firmTypes, at: fetched)
      defer { warmContainer.store.persistence?.close() }
      let warm = ModelContext(warmContainer)
      try change(warm)
      for (name, descriptor) in descriptors {
        let expected = try full.fetch(descriptor).map(label)
        let container = try TestServer.container(firmTypes, at: fetched)
        defer { container.store.persistence?.close() }
        let counting = ModelContext(container)
        try change(counting)
        #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
        let coldContainer = try TestServer.container(firmTypes, at: fetched)
        defer { coldContainer.store.persistence?.close() }
        let cold = ModelContext(coldContainer)
        try change(cold)
        #expect(try cold.fetch(descriptor).map(label) == expected, "\(name)")
        #expect(try warm.fetch(descriptor).map(label) == expected, "\(name)")
        #expect(try warm.fetchCount(descriptor) == expected.count, "\(name)")
      }
    }

    @Test("paths two and three relationships deep: the same answers as full mode")
    func differential() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      try compare(Self.workerDescriptors(), url: url, change: Self.change, label: \.name)
      try compare(Self.firmDescriptors(), url: url, change: Self.change, label: \.name)
      try compare(Self.branchDescriptors(), url: url, change: Self.change, label: \.name)
    }

    @Test("saved objects changed behind a relationship without inverse: the same answers")
    func changedBehindNoInverse() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      try compare(Self.workerDescriptors(), url: url, change: Self.changeSites, label: \.name)
      try compare(Self.firmDescriptors(), url: url, change: Self.changeSites, label: \.name)
      try compare(Self.branchDescriptors(), url: url, change: Self.changeSites, label: \.name)
    }
  }
}
