import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedDeep {
  /// 100 firms `f<i>`, each with two branches `b<i>_<j>` at site `c<i % 50>`, each branch
  /// with two workers `w<i>_<j>_<k>` scored `i`.
  static func seedMany(_ url: URL) throws {
    let container = try TestServer.container(firmTypes, at: url)
    defer { container.store.persistence?.close() }
    let context = ModelContext(container)
    let sites = (0..<50).map { Site(city: "c\($0)") }
    for site in sites { context.insert(site) }
    for index in 0..<100 {
      let firm = Firm(name: "f\(index)")
      context.insert(firm)
      firm.branches = (0..<2).map { place in
        let branch = Branch(name: "b\(index)_\(place)")
        branch.site = sites[index % 50]
        branch.workers = (0..<2).map { Worker(name: "w\(index)_\(place)_\($0)", score: index) }
        return branch
      }
    }
    try context.save()
  }

  /// The live objects of each class in the container's store.
  static func resident(_ container: ModelContainer) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for name in ["Firm", "Branch", "Worker", "Site"] {
      counts[name] = try PostgreSQLStoreSuites.FetchedResidency().residentCount(container, name)
    }
    return counts
  }

  /// A fetched-mode context on `url` after `change`, and the objects then resident.
  static func changed(_ url: URL, _ change: (ModelContext) throws -> Void) throws -> (
    ModelContainer, ModelContext, [String: Int]
  ) {
    let container = try TestServer.container(
      firmTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
    let context = ModelContext(container)
    try change(context)
    return (container, context, try resident(container))
  }

  /// Renames firm `f1` (whose two branches and four workers come into memory with it).
  static func renameFirm(_ context: ModelContext) throws {
    try named(context, #Predicate<Firm> { $0.name == "f1" }).name = "x"
  }

  /// Scores worker `w1_0_0` 500 (its firm, branches and their workers come with it).
  static func rescore(_ context: ModelContext) throws {
    try named(context, #Predicate<Worker> { $0.name == "w1_0_0" }).score = 500
  }

  /// Moves branch `b1_0` to a new site in `c3`.
  static func newSite(_ context: ModelContext) throws {
    let site = Site(city: "c3")
    context.insert(site)
    try named(context, #Predicate<Branch> { $0.name == "b1_0" }).site = site
  }

  @Test(
    "with unsaved changes, paths two deep and past a relationship without inverse load what can match"
  )
  func loadsWhatCanMatch() throws {
    let url = try TestServer.freshURL()
    try Self.seedMany(url)

    // Two to-ones with inverses: the 4 workers of f50 join the 4 of the renamed firm.
    var (container, context, before) = try Self.changed(url, Self.renameFirm)
    let ofFirm = FetchDescriptor<Worker>(
      predicate: #Predicate { $0.branch?.firm?.name == "f50" }, sortBy: [SortDescriptor(\.name)])
    #expect(try context.fetch(ofFirm).count == 4)
    var after = try Self.resident(container)
    container.store.persistence?.close()
    print("workers of f50, f1 renamed: \(before) -> \(after)")
    #expect(before["Worker"] == 4 && after["Worker"] == 8)
    (container, context, before) = try Self.changed(url, Self.renameFirm)
    #expect(try context.fetchCount(ofFirm) == 4)
    #expect(try Self.resident(container) == before)
    container.store.persistence?.close()

    // A to-many's elements' to-many: f99 matches, and the changed worker's firm now does.
    (container, context, before) = try Self.changed(url, Self.rescore)
    let high = FetchDescriptor<Firm>(
      predicate: #Predicate { firm in
        firm.branches.contains { branch in branch.workers.contains { $0.score > 98 } }
      }, sortBy: [SortDescriptor(\.name)])
    #expect(try context.fetch(high).map(\.name) == ["f1", "f99"])
    after = try Self.resident(container)
    container.store.persistence?.close()
    print("firms with a worker above 98, w1_0_0 rescored: \(before) -> \(after)")
    #expect(before["Firm"] == 1 && after["Firm"] == 2)
    (container, context, before) = try Self.changed(url, Self.rescore)
    #expect(try context.fetchCount(high) == 2)
    #expect(try Self.resident(container) == before)
    container.store.persistence?.close()

    // Past `Branch.site`, which has no inverse: the workers of f3 and f53 (site c3), and of
    // b1_0, moved to a new site in c3.
    (container, context, before) = try Self.changed(url, Self.newSite)
    let inCity = FetchDescriptor<Worker>(
      predicate: #Predicate { $0.branch?.site?.city == "c3" }, sortBy: [SortDescriptor(\.name)])
    #expect(try context.fetch(inCity).count == 10)
    after = try Self.resident(container)
    container.store.persistence?.close()
    print("workers in c3, b1_0 moved to a new site: \(before) -> \(after)")
    #expect(before["Worker"] == 4 && after["Worker"] == 12)
    (container, context, before) = try Self.changed(url, Self.newSite)
    #expect(try context.fetchCount(inCity) == 10)
    #expect(try Self.resident(container) == before)
    container.store.persistence?.close()
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedDeep {
  @Test("a saved site renamed: memory cannot name what holds it, the SQL selects it")
  func changedSiteHolders() throws {
    let url = try TestServer.freshURL()
    try Self.seedMany(url)
    func renamed(_ context: ModelContext) throws {
      try Self.named(context, #Predicate<Site> { $0.city == "c3" }).city = "x"
    }
    var (container, context, before) = try Self.changed(url, renamed)
    // Loading a site does not load what holds it: nothing in memory names its branches (and
    // scanning the resident branches would miss them).
    #expect(before["Site"] == 1 && before["Branch"] == 0)
    let branches = FetchDescriptor<Branch>(
      predicate: #Predicate { $0.site?.city == "x" }, sortBy: [SortDescriptor(\.name)])
    #expect(try context.fetch(branches).map(\.name) == ["b3_0", "b3_1", "b53_0", "b53_1"])
    var after = try Self.resident(container)
    print("branches in x, site c3 renamed: \(before) -> \(after)")
    // The four branches at c3, selected by `site == c3` in SQL (and not the 200).
    #expect(after["Branch"] == 4)
    #expect(try context.fetchCount(branches) == 4)
    container.store.persistence?.close()

    (container, context, before) = try Self.changed(url, renamed)
    let workers = FetchDescriptor<Worker>(
      predicate: #Predicate { $0.branch?.site?.city == "x" }, sortBy: [SortDescriptor(\.name)])
    #expect(try context.fetchCount(workers) == 8)
    #expect(try context.fetch(workers).count == 8)
    after = try Self.resident(container)
    print("workers in x, site c3 renamed: \(before) -> \(after)")
    #expect(after["Worker"] == 8)
    container.store.persistence?.close()
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedDeep {
  @Test("a saved site renamed: a sorted, limited fetch loads the window and what holds the site")
  func changedSiteHoldersWindow() throws {
    let url = try TestServer.freshURL()
    try Self.seedMany(url)
    func renamed(_ from: String) -> (ModelContext) throws -> Void {
      { context in try Self.named(context, #Predicate<Site> { $0.city == from }).city = "x" }
    }
    // Branches at c0 (b0_*, b50_*) leave the answer: the first three are further on.
    var (container, context, before) = try Self.changed(url, renamed("c0"))
    #expect(before["Branch"] == 0)
    var notX = FetchDescriptor<Branch>(
      predicate: #Predicate { $0.site?.city != "x" }, sortBy: [SortDescriptor(\.name)])
    notX.fetchLimit = 3
    #expect(try context.fetch(notX).map(\.name) == ["b10_0", "b10_1", "b11_0"])
    notX.fetchOffset = 2
    #expect(try context.fetch(notX).map(\.name) == ["b11_0", "b11_1", "b12_0"])
    var after = try Self.resident(container)
    print("3 branches not in x, site c0 renamed: \(before) -> \(after)")
    // The window (widened by the 4 branches at c0), those 4, and their firms' branches; not
    // the 196 branches that are not in x.
    #expect(after["Branch"]! <= 20)
    container.store.persistence?.close()

    // Branches at c9 (b9_*, b59_*) join the answer, ahead of the database's first three.
    (container, context, before) = try Self.changed(url, renamed("c9"))
    var notC9 = FetchDescriptor<Branch>(
      predicate: #Predicate { $0.site?.city != "c9" },
      sortBy: [SortDescriptor(\.name, order: .reverse)])
    notC9.fetchLimit = 3
    #expect(try context.fetch(notC9).map(\.name) == ["b9_1", "b9_0", "b99_1"])
    after = try Self.resident(container)
    print("3 branches not in c9, site c9 renamed: \(before) -> \(after)")
    #expect(after["Branch"]! <= 20)
    notC9.fetchLimit = nil
    #expect(try context.fetchCount(notC9) == 200)
    container.store.persistence?.close()

    // A count: PostgreSQL counts all but the 4 branches at c9, which are loaded and counted
    // over the context's view.
    (container, context, before) = try Self.changed(url, renamed("c9"))
    #expect(try context.fetchCount(notC9) == 200)
    after = try Self.resident(container)
    print("count of branches not in c9, site c9 renamed: \(before) -> \(after)")
    #expect(after["Branch"] == 4)
    let inC9 = FetchDescriptor<Branch>(predicate: #Predicate { $0.site?.city == "c9" })
    #expect(try context.fetchCount(inC9) == 0)
    container.store.persistence?.close()
  }
}
