import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedDeep {
  /// A small seeded generator (SplitMix64), so every run makes the same changes.
  struct Seeded {
    var state: UInt64

    /// A number in `0..<count`.
    mutating func next(_ count: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(count))
    }
  }

  /// The names (cities for sites) of every live object of each class in `full`, sorted.
  static func names(_ full: ModelContext) throws -> (
    firms: [String], branches: [String], workers: [String], sites: [String]
  ) {
    (
      try full.fetch(FetchDescriptor<Firm>()).map(\.name).sorted(),
      try full.fetch(FetchDescriptor<Branch>()).map(\.name).sorted(),
      try full.fetch(FetchDescriptor<Worker>()).map(\.name).sorted(),
      try full.fetch(FetchDescriptor<Site>()).map(\.city).sorted()
    )
  }

  /// One random change, its objects picked among `full`'s (every name and city stays unique),
  /// as a change to make in any context; `nil` when there was nothing to pick. Saved sites are
  /// renamed or deleted only when `sites`.
  static func randomChange(
    _ random: inout Seeded, step: Int, sites: Bool, full: ModelContext
  ) throws -> (String, (ModelContext) throws -> Void)? {
    let all = try names(full)
    func pick(_ names: [String]) -> String? {
      names.isEmpty ? nil : names[random.next(names.count)]
    }
    func firm(_ context: ModelContext, _ name: String) throws -> Firm {
      try named(context, #Predicate { $0.name == name })
    }
    func branch(_ context: ModelContext, _ name: String) throws -> Branch {
      try named(context, #Predicate { $0.name == name })
    }
    func worker(_ context: ModelContext, _ name: String) throws -> Worker {
      try named(context, #Predicate { $0.name == name })
    }
    func site(_ context: ModelContext, _ city: String) throws -> Site {
      try named(context, #Predicate { $0.city == city })
    }
    let score = random.next(13)
    let orNone = random.next(4) == 0
    switch random.next(sites ? 14 : 12) {
    case 0:
      guard let w = pick(all.workers) else { return nil }
      return ("score \(w) \(score)", { try worker($0, w).score = score })
    case 1:
      guard let w = pick(all.workers), let b = pick(all.branches) else { return nil }
      return (
        "move \(w) to \(orNone ? "none" : b)",
        { try worker($0, w).branch = orNone ? nil : try branch($0, b) }
      )
    case 2:
      guard let w = pick(all.workers), let b = pick(all.branches) else { return nil }
      return (
        "append \(w) to \(b)",
        { context in
          let to = try branch(context, b)
          let moved = try worker(context, w)
          if !to.workers.contains(where: { $0 === moved }) { to.workers = to.workers + [moved] }
        }
      )
    case 3:
      guard let b = pick(all.branches), let f = pick(all.firms) else { return nil }
      return (
        "move \(b) to \(orNone ? "none" : f)",
        { try branch($0, b).firm = orNone ? nil : try firm($0, f) }
      )
    case 4:
      guard let b = pick(all.branches), let f = pick(all.firms) else { return nil }
      return (
        "append \(b) to \(f)",
        { context in
          let to = try firm(context, f)
          let moved = try branch(context, b)
          if !to.branches.contains(where: { $0 === moved }) {
            to.branches = to.branches + [moved]
          }
        }
      )
    case 5:
      guard let w = pick(all.workers) else { return nil }
      return ("delete \(w)", { $0.delete(try worker($0, w)) })
    case 6:
      guard let b = pick(all.branches) else { return nil }
      return ("delete \(b)", { $0.delete(try branch($0, b)) })
    case 7:
      guard let f = pick(all.firms) else { return nil }
      return ("delete \(f)", { $0.delete(try firm($0, f)) })
    case 8:
      guard let b = pick(all.branches) else { return nil }
      return (
        "new worker n\(step) in \(b)",
        { context in
          let made = Worker(name: "n\(step)", score: score)
          context.insert(made)
          made.branch = try branch(context, b)
        }
      )
    case 9:
      guard let f = pick(all.firms) else { return nil }
      let at = pick(all.sites)
      let staff = random.next(3)
      return (
        "new branch nb\(step) in \(f) at \(at ?? "none") with \(staff)",
        { context in
          let made = Branch(name: "nb\(step)")
          context.insert(made)
          made.site = try at.map { try site(context, $0) }
          made.workers = (0..<staff).map { Worker(name: "nb\(step)w\($0)", score: score + $0) }
          made.firm = try firm(context, f)
        }
      )
    case 10:
      guard let b = pick(all.branches) else { return nil }
      let at = orNone ? nil : pick(all.sites)
      let fresh = random.next(3) == 0
      return (
        "site of \(b): \(fresh ? "new c\(step)" : at ?? "none")",
        { context in
          if fresh {
            let made = Site(city: "c\(step)")
            context.insert(made)
            try branch(context, b).site = made
          } else {
            try branch(context, b).site = try at.map { try site(context, $0) }
          }
        }
      )
    case 11:
      guard let f = pick(all.firms) else { return nil }
      return ("rename \(f) r\(step)", { try firm($0, f).name = "r\(step)" })
    case 12:
      guard let s = pick(all.sites) else { return nil }
      let city = all.sites.contains("Oslo") ? "z\(step)" : "Oslo"
      return ("rename site \(s) \(city)", { try site($0, s).city = city })
    default:
      guard let s = pick(all.sites) else { return nil }
      return ("delete site \(s)", { $0.delete(try site($0, s)) })
    }
  }

  /// The fetches compared after each change: `(name, fetch, count)` of a context.
  static func randomChecks() -> [(String, (ModelContext) throws -> ([String], Int))] {
    func check<T: PersistentModel>(
      _ descriptors: [(String, FetchDescriptor<T>)], _ label: @escaping (T) -> String
    ) -> [(String, (ModelContext) throws -> ([String], Int))] {
      descriptors.map { name, descriptor in
        // Counted first: a cold context's count runs before anything is loaded.
        (
          name,
          { context in
            let count = try context.fetchCount(descriptor)
            return (try context.fetch(descriptor).map(label), count)
          }
        )
      }
    }
    return check(workerDescriptors(), \.name) + check(firmDescriptors(), \.name)
      + check(branchDescriptors(), \.name)
  }

  @Test(
    "seeded random changes on each side of each relationship: deep fetches as in full mode",
    arguments: [false, true])
  func randomChanges(sites: Bool) throws {
    let url = try TestServer.freshURL()
    try Self.seed(url)
    let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
    let checks = Self.randomChecks()
    for seed in 0..<10 {
      var random = Seeded(state: UInt64(seed) &* 7919 &+ (sites ? 1 : 0))
      let fullContainer = try TestServer.container(firmTypes, at: url)
      let warmContainer = try TestServer.container(firmTypes, at: fetched)
      defer {
        fullContainer.store.persistence?.close()
        warmContainer.store.persistence?.close()
      }
      let (full, warm) = (ModelContext(fullContainer), ModelContext(warmContainer))
      var log: [String] = []
      var made: [(ModelContext) throws -> Void] = []
      for step in 0..<12 {
        guard
          let (text, change) = try Self.randomChange(
            &random, step: step, sites: sites, full: full)
        else { continue }
        log.append(text)
        made.append(change)
        try change(full)
        try change(warm)
        let (name, check) = checks[random.next(checks.count)]
        let expected = try check(full)
        #expect(try check(warm) == expected, "seed \(seed) step \(step) \(name): \(log)")
      }
      // Cold: every check in a new context with the same changes.
      for (name, check) in checks where random.next(3) == 0 {
        let container = try TestServer.container(firmTypes, at: fetched)
        defer { container.store.persistence?.close() }
        let cold = ModelContext(container)
        for change in made { try change(cold) }
        #expect(try check(cold) == check(full), "seed \(seed) cold \(name): \(log)")
      }
    }
  }
}
