import ModelGraphCore
import Testing

@testable import ModelGraph

/// A firm whose branches know it.
final class OWFirm: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \OWBranch.firm) var branches: [OWBranch]
}

/// A branch with workers who know it, at a site that does not know it.
final class OWBranch: PersistentModel {
  @Attribute var name: String
  @Relationship var firm: OWFirm?
  @Relationship(inverse: \OWWorker.branch) var workers: [OWWorker]
  @Relationship var site: OWSite?
}

/// A worker at a branch.
final class OWWorker: PersistentModel {
  @Attribute var name: String
  @Relationship var branch: OWBranch?
}

/// A site, which lists no branches.
final class OWSite: PersistentModel {
  @Attribute var city: String
}

/// Which objects a fetch with unsaved changes adds for the paths of relationships it reads:
/// those reaching a changed object through inverses, and conditions for the saved objects past
/// a relationship without inverse.
@Suite("Query: owners of changed objects along paths")
struct FetchedOwnerWalkTests {
  let context: ModelContext
  let firms: [OWFirm]
  let sites: [OWSite]

  /// Firms f0…f2, each with branches `b<i>_0` and `b<i>_1` at site `i`, each with workers
  /// `w<i>_<j>_0` and `w<i>_<j>_1`; saved.
  init() throws {
    let container = try ModelContainer(
      for: [OWFirm.self, OWBranch.self, OWWorker.self, OWSite.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    context = ModelContext(container)
    var firms: [OWFirm] = []
    var sites: [OWSite] = []
    for index in 0..<3 {
      let site = OWSite()
      site.city = "c\(index)"
      context.insert(site)
      sites.append(site)
      let firm = OWFirm()
      firm.name = "f\(index)"
      context.insert(firm)
      firm.branches = (0..<2).map { place in
        let branch = OWBranch()
        branch.name = "b\(index)_\(place)"
        branch.site = site
        branch.workers = (0..<2).map {
          let worker = OWWorker()
          worker.name = "w\(index)_\(place)_\($0)"
          return worker
        }
        return branch
      }
      firms.append(firm)
    }
    try context.save()
    (self.firms, self.sites) = (firms, sites)
  }

  /// What a walk back to the objects of class `name` over the context's changes finds along
  /// `path`.
  func owners(_ name: String, along path: [String]) throws -> FetchedOwnerWalk.Found? {
    let catalog = context.session.catalog
    let entity = try #require(catalog.entity(named: name)).index
    var walk = FetchedOwnerWalk(
      session: context.session, changes: context.session.changeSet, catalog: catalog,
      entities: [entity])
    return walk.owners(along: path)
  }

  /// The key of `model` in the context.
  func key(_ model: some PersistentModel) throws -> ObjectKey {
    try #require(context.key(for: model.persistentModelID))
  }

  /// The names of the workers the keys name.
  func workerNames(_ keys: [ObjectKey]) throws -> Set<String> {
    let workers = try context.fetch(FetchDescriptor<OWWorker>())
    var byKey: [ObjectKey: String] = [:]
    for worker in workers { byKey[try key(worker)] = worker.name }
    return Set(keys.compactMap { byKey[$0] })
  }

  @Test("a renamed firm: the workers two levels back; a moved branch: those of both firms")
  func twoLevels() throws {
    firms[1].name = "x"
    let renamed = try #require(try owners("OWWorker", along: ["branch", "firm"]))
    #expect(try workerNames(renamed.owners) == ["w1_0_0", "w1_0_1", "w1_1_0", "w1_1_1"])
    #expect(renamed.holders.isEmpty)
    #expect(try #require(try owners("OWWorker", along: ["branch"])).owners.isEmpty)

    context.rollback()
    firms[0].branches[0].firm = firms[2]
    let moved = try #require(try owners("OWWorker", along: ["branch", "firm"]))
    // The branch itself changed, and so did both firms' lists: every worker of f0 and f2.
    #expect(
      try workerNames(moved.owners)
        == ["w0_0_0", "w0_0_1", "w0_1_0", "w0_1_1", "w2_0_0", "w2_0_1", "w2_1_0", "w2_1_1"])
  }

  @Test("a saved site renamed: no owner, a condition that the branch (or the worker's) holds it")
  func savedPastNoInverse() throws {
    sites[1].city = "x"
    let site = try key(sites[1])
    let direct = try #require(try owners("OWBranch", along: ["site"]))
    #expect(direct.owners.isEmpty)
    #expect(
      direct.holders == [.comparison(.relationship(.root, "site"), .equal, .object(site))])
    let deep = try #require(try owners("OWWorker", along: ["branch", "site"]))
    #expect(deep.owners.isEmpty)
    #expect(
      deep.holders == [
        .comparison(.relationship(.relationship(.root, "branch"), "site"), .equal, .object(site))
      ])
    let many = try #require(try owners("OWFirm", along: ["branches", "site"]))
    #expect(
      many.holders == [
        .any(
          .relationship(.root, "branches"), variable: 1_000,
          .comparison(.relationship(.variable(1_000), "site"), .equal, .object(site)))
      ])
  }

  @Test("a new site: its branch's workers, no condition; past the limit the walk gives up")
  func newPastNoInverse() throws {
    let made = OWSite()
    made.city = "new"
    context.insert(made)
    firms[2].branches[1].site = made
    let found = try #require(try owners("OWWorker", along: ["branch", "site"]))
    #expect(try workerNames(found.owners) == ["w2_1_0", "w2_1_1"])
    #expect(found.holders.isEmpty)

    context.rollback()
    for index in 0...FetchedOwnerWalk.holderLimit {
      let site = OWSite()
      site.city = "s\(index)"
      context.insert(site)
    }
    try context.save()
    for site in try context.fetch(FetchDescriptor<OWSite>()) { site.city += "!" }
    #expect(try owners("OWBranch", along: ["site"]) == nil)
    #expect(try #require(try owners("OWBranch", along: ["firm"])).holders.isEmpty)
  }
}
