import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// The model-based test of several contexts (`ModelBasedContextsTests`) on PostgreSQL with
/// `residency=fetched`, checked against the reference by that residency's rules:
/// - a fetch (`fetch`, `fetchCount`, `fetchIdentifiers`, batches, and the fetch of a delete
///   by predicate) in a context with unsaved changes moves it onto the newest committed data with its changes replayed (the
///   reference's `rebase`), so it reads other contexts' saves;
/// - a collision of those changes with saves made since is refused at that fetch (the
///   conflicts a save would report, ``MergePolicy/rejectConflicts``), which leaves the context
///   as it was: its next fetches and its save are refused alike until it rolls back;
/// - `model(for:)` of an object the context does not hold moves it as a fetch does;
/// - a context that does not fetch keeps its base, and its save meets the conflicts as in
///   memory.
///
/// Dirty contexts fetch at some checks only, so that both fetches and saves meet conflicts.
/// With two containers on one database (two processes' worth), the contexts alternate between
/// them; the second keeps every object in memory, or only what its queries select. Under
/// ``MergePolicy/lastWriterWins`` and ``MergePolicy/storeWins`` a fetch settles its conflicts
/// instead of being refused. Every 40 steps and at the end, a new container on the database must read exactly the
/// reference's committed state. Needs `MODELGRAPH_POSTGRESQL_URL`; the same `MODELFUZZ_*`
/// variables as `ModelBasedContextsTests` pick seeds and steps.
@Suite(
  "Concurrency: several contexts against a reference model, residency=fetched",
  .enabled(if: MBFetchedServer.url != nil, MBFetchedServer.skipped),
  .disabled(if: testsRunOnPostgreSQL && !testsRunOnFetchedResidency, MBFetchedServer.once))
struct ModelBasedFetchedTests {
  static let steps = ModelBasedContextsTests.environment["MODELFUZZ_STEPS"].flatMap(Int.init) ?? 300
  /// Seed 1 (300 steps: seconds per test), or as `ModelBasedContextsTests.seeds` reads `MODELFUZZ_SEED(S)`.
  static let seeds: [UInt64] = {
    let environment = ModelBasedContextsTests.environment
    let chosen = environment["MODELFUZZ_SEED"] ?? environment["MODELFUZZ_SEEDS"]
    return chosen == nil ? [1] : ModelBasedContextsTests.seeds
  }()

  /// Runs `run` for ``steps`` steps: records its failure (seed and replay command), prints its
  /// counts under `label` when `MODELFUZZ_STATS` is set, and expects that it saved, checked
  /// and moved contexts by fetches.
  static func expectAgreement(
    _ run: MBFetchedRun, label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let failure = run.run(steps: steps) {
      Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    if ModelBasedContextsTests.environment["MODELFUZZ_STATS"] != nil {
      print("\(label): \(run.counts)")
    }
    #expect(
      run.saves > 0 && run.checks > 0 && run.rebasingFetches > 0, sourceLocation: sourceLocation)
  }

  @Test(
    "random interleavings of three contexts on one container agree with the reference",
    arguments: seeds)
  func oneContainer(seed: UInt64) throws {
    let run = try MBFetchedRun(seed: seed, containers: 1)
    Self.expectAgreement(run, label: "fetched seed \(seed)")
  }

  @Test(
    "random interleavings of three contexts on two containers agree with the reference",
    arguments: seeds)
  func twoContainers(seed: UInt64) throws {
    let run = try MBFetchedRun(seed: seed, containers: 2)
    Self.expectAgreement(run, label: "fetched, two containers, seed \(seed)")
  }
}

/// The three merge policies, as ``ModelBasedContextsTests``' `policies` test runs them: only
/// probes write across homes, and a fetch with unsaved changes settles its conflicts by the
/// context's policy instead of being refused (but for ``MBPolicy/reject``).
extension ModelBasedFetchedTests {
  @Test(
    "random interleavings under the three merge policies agree with the reference",
    arguments: seeds)
  func policies(seed: UInt64) throws {
    let run = try MBFetchedRun(
      seed: seed, containers: 1, policies: [.reject, .mine, .store], crossContext: false)
    Self.expectAgreement(run, label: "fetched, policies, seed \(seed)")
  }
}

extension ModelBasedFetchedTests {
  /// The second container reads only what its contexts' queries select, so that their
  /// fetches with unsaved changes read objects memory does not hold yet (the other
  /// container's) and widen their SQL for the rows they changed.
  @Test(
    "two containers, one keeping only what its queries select, agree with the reference",
    arguments: seeds)
  func partialResidency(seed: UInt64) throws {
    let run = try MBFetchedRun(seed: seed, containers: 2, partialSecond: true)
    Self.expectAgreement(run, label: "fetched, partial second container, seed \(seed)")
  }
}

/// The server of ``ModelBasedFetchedTests``, and why it is skipped.
enum MBFetchedServer {
  static let url = ProcessInfo.processInfo.environment["MODELGRAPH_POSTGRESQL_URL"]
    .flatMap { $0.isEmpty ? nil : $0 }
  static let skipped = Comment(
    rawValue: "MODELGRAPH_POSTGRESQL_URL is not set, so the residency=fetched model-based test "
      + "is skipped; run `eval $(scripts/postgresql-dev.sh start)` to start a private server")
  /// CI runs the typed suites once per store; this test needs running once.
  static let once = Comment(
    rawValue: "runs with MODELGRAPH_TEST_STORE=postgresql-fetched (or unset), not again here")
}

/// A run of ``MBRun`` on PostgreSQL with `residency=fetched`, whose contexts are on one or two
/// containers of one new schema, all rejecting conflicts.
final class MBFetchedRun: MBRun {
  let url: URL
  let containers: [ModelContainer]
  /// Fetches with unsaved changes that moved onto newer data, and refused ones.
  var rebasingFetches = 0
  var refusedFetches = 0

  static let types: [any PersistentModel.Type] = [MBOwner.self, MBVIPOwner.self, MBItem.self]

  /// Whether the second container keeps only what its contexts' queries select (see
  /// ``readsWholeGraph(container:)``).
  let partialSecond: Bool

  init(
    seed: UInt64, containers count: Int, policies: [MBPolicy] = [.reject, .reject, .reject],
    crossContext: Bool = true, partialSecond: Bool = false
  ) throws {
    self.partialSecond = partialSecond
    let base = MBFetchedServer.url!
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try PostgreSQLConnection(base).run("CREATE SCHEMA \(name)")
    let separator = base.contains("?") ? "&" : "?"
    url = URL(string: base + separator + "options=-csearch_path%3D\(name)&residency=fetched")!
    let url = url
    containers = try (0..<count).map { _ in
      try ModelContainer(for: Self.types, configurations: [ModelConfiguration(url: url)])
    }
    try super.init(
      seed: seed, policies: policies, crossContext: crossContext, containers: containers)
  }

  /// Runs `steps` steps, then saves or rolls back every context and checks the database;
  /// returns the failure report, or `nil`.
  override func run(steps: Int) -> String? {
    if let failure = super.run(steps: steps) { return failure }
    do {
      step += 1
      for index in contexts.indices where reference.contexts[index].isDirty {
        if chance(50) { try save(index) } else { rollback(index) }
      }
      try checkDatabase()
      return nil
    } catch {
      return report(error)
    }
  }

  /// A new container on the database reads exactly the committed state.
  func checkDatabase() throws {
    counts["database checks", default: 0] += 1
    let opened = try ModelContainer(for: Self.types, configurations: [ModelConfiguration(url: url)])
    try checkGraph(ModelContext(opened), reference.committed, "a new container")
  }

  /// The reference's state of context `index` after a fetch moved it onto the newest committed
  /// state with its changes replayed (`state`): what its changes wrote is now measured against
  /// that state, and the attributes that kept the saved value (`keptSaved`, under
  /// ``MBPolicy/store``) are no longer written.
  func move(_ index: Int, to state: MBState, keptSaved: Set<MBAttributeOf> = []) {
    let committed = reference.committed
    var model = reference.contexts[index]
    if model.base != committed { rebasingFetches += 1 }
    model.base = committed
    model.view = state
    model.footprint.deleted = model.footprint.deleted.filter(committed.contains)
    for kept in keptSaved { model.footprint.attributes[kept.serial]?.remove(kept.attribute) }
    model.footprint.attributes = model.footprint.attributes.filter {
      state.contains($0.key) && committed.contains($0.key) && !$0.value.isEmpty
    }
    model.footprint.relationships = model.footprint.relationships.filter {
      state.contains($0) && committed.contains($0)
    }
    reference.contexts[index] = model
  }

  /// What a fetch in context `index` does by the reference: the conflicts that refuse it, or
  /// the state it moves the context onto (its conflicts settled by the context's policy) and
  /// the attributes whose writes that settling dropped.
  func fetchOutcome(_ index: Int) throws -> (
    conflicts: [String], state: MBState?, keptSaved: Set<MBAttributeOf>
  ) {
    let policy = policies[index]
    let state: MBState
    switch reference.saveOutcome(of: index, policy: policy) {
    case .conflicts(let kinds): return (kinds, nil, [])
    case .saved(let settledState, let settled, let orderKnown):
      guard orderKnown else {
        throw fail("context \(index): the reference does not predict the lists of this move")
      }
      for kind in settled { counts["settled at a fetch: " + kind, default: 0] += 1 }
      state = settledState
    case .duplicates(_, let rebased): state = rebased
    }
    let problems = state.inverseProblems
    if !problems.isEmpty {
      throw fail(
        "context \(index): the reference's rebase breaks inverses:\n"
          + problems.joined(separator: "\n"))
    }
    var keptSaved = Set<MBAttributeOf>()
    if policy == .store {
      _ = reference.conflicts(of: reference.contexts[index], attributeConflicts: &keptSaved)
    }
    return ([], state, keptSaved)
  }

  /// Checks every context after a step by `actor`: whether it has changes; clean contexts
  /// fetch (and move onto the newest data); dirty ones fetch at times, moving with their
  /// changes or refused; then fresh contexts on every container, and every 40 steps a new
  /// container.
  override func checkEverything(actor: Int, committedChanged: Bool) throws {
    checks += 1
    for index in contexts.indices {
      let dirty = reference.contexts[index].isDirty
      if contexts[index].hasChanges != dirty {
        throw fail("context \(index): hasChanges is \(!dirty), expected \(dirty)")
      }
    }
    for index in contexts.indices {
      let name = "context \(index)"
      let whole = readsWholeGraph(container: index % containers.count)
      if !reference.contexts[index].isDirty {
        reference.contexts[index].reset(to: reference.committed)
        let view = reference.contexts[index].view
        if whole ?? (index == actor || committedChanged) {
          try checkGraph(contexts[index], view, name)
        }
        try checkQueries(contexts[index], view, name)
      } else if whole == false || chance(index == actor ? 70 : 35) {
        try fetchWithChanges(index, graph: whole ?? chance(50))
      }
    }
    for (number, container) in containers.enumerated() {
      let fresh = ModelContext(container)
      let name = "a fresh context on container \(number)"
      if readsWholeGraph(container: number) ?? committedChanged {
        try checkGraph(fresh, reference.committed, name)
      }
      try checkQueries(fresh, reference.committed, name)
      for serial in deletedIDs.sorted().suffix(2) {
        try checkLookUp(serial, in: fresh, expected: false, name)
      }
      let live = ids.keys.filter { !deletedIDs.contains($0) }.sorted()
      if !live.isEmpty { try checkLookUp(pick(live), in: fresh, expected: true, name) }
    }
    if step % 40 == 0 { try checkDatabase() }
  }

  /// Whether the checks of contexts on container `number` read the whole graph at every
  /// fetch (`true`), never (`false`), or at times (`nil`).
  ///
  /// With two containers, the first reads every object at each check, so that every object of
  /// the committed state is in its memory, as its contexts' views assume. With
  /// ``partialSecond``, the second keeps only what its queries select: its contexts then fetch
  /// at every check with unsaved changes, and roll back when refused, so that an object a
  /// context's view holds and memory does not, which `model(for:)` then reads in (moving the
  /// context onto the newest data), is read at the version the context is on.
  func readsWholeGraph(container number: Int) -> Bool? {
    guard containers.count > 1 else { return nil }
    return !(partialSecond && number > 0)
  }

  /// A fetch in context `index`, which has unsaved changes: refused for the conflicts the
  /// reference predicts (the context then unchanged, and rolled back half the time), or moved
  /// onto the newest committed state with its changes replayed, and checked there.
  func fetchWithChanges(_ index: Int, graph: Bool) throws {
    let name = "context \(index)"
    let (kinds, state, keptSaved) = try fetchOutcome(index)
    guard let state else {
      note("\(name): fetch, refused for conflicts \(kinds)", counting: "refused fetch")
      do {
        try firstRead(contexts[index], reference.contexts[index].view, name)
        throw fail("\(name): a fetch went ahead, expected it refused for conflicts \(kinds)")
      } catch let error as ModelError {
        guard error.code == .conflict else {
          throw fail("\(name): fetch threw \(error), expected conflicts \(kinds)")
        }
        let reported = error.conflicts.map(\.kind.rawValue).sorted()
        if reported != kinds {
          throw fail("\(name): fetch refused for \(reported), expected \(kinds): \(error)")
        }
      }
      refusedFetches += 1
      if !contexts[index].hasChanges { throw fail("\(name): a refused fetch dropped its changes") }
      if readsWholeGraph(container: index % containers.count) == false || chance(30) {
        rollback(index)
      }
      return
    }
    let moving = reference.contexts[index].base != reference.committed
    note(
      "\(name): fetch" + (moving ? ", moving onto the newest data with its changes" : ""),
      counting: moving ? "rebasing fetch" : "fetch with changes")
    move(index, to: state, keptSaved: keptSaved)
    let view = reference.contexts[index].view
    try firstRead(contexts[index], view, name)
    if graph { try checkGraph(contexts[index], view, name) }
    if contexts[index].hasChanges != reference.contexts[index].isDirty {
      throw fail(
        "\(name): after the fetch, hasChanges is \(contexts[index].hasChanges), expected "
          + "\(reference.contexts[index].isDirty)")
    }
  }

  /// The read that moves a context with unsaved changes (or is refused): a random fetch
  /// (``checkQueries(_:_:_:)``), or first a count or the identifiers of a random query (so
  /// that each of those moves it), then that query's fetch.
  func firstRead(_ context: ModelContext, _ view: MBState, _ name: String) throws {
    switch int(0...3) {
    case 0: try checkFirst(ownerQuery(view), context, name)
    case 1: try checkFirst(itemQuery(view), context, name)
    case 2: try checkFirst(vipQuery(view), context, name)
    default: try checkQueries(context, view, name)
    }
  }

  func checkFirst<T: PersistentModel>(
    _ query: (String, FetchDescriptor<T>, [Int]), _ context: ModelContext, _ name: String
  ) throws {
    let (text, descriptor, want) = query
    if chance(50) {
      counts["count first", default: 0] += 1
      let count = try context.fetchCount(descriptor)
      if count != want.count {
        throw fail("\(name): fetchCount \(text), read first, gave \(count), expected \(want.count)")
      }
    } else {
      counts["identifiers first", default: 0] += 1
      let identifiers = try context.fetchIdentifiers(descriptor)
      let serials = identifiers.map { context.model(for: $0).flatMap(serialOf) ?? -1 }
      if (descriptor.sortBy.isEmpty ? serials.sorted() : serials) != want {
        throw fail(
          "\(name): fetchIdentifiers \(text), read first, gave \(serials) (-1: no object), "
            + "expected \(want)")
      }
    }
    try check(text, descriptor, want, context, name)
  }

  /// Applies `edit` in context `index` and in the reference; a delete by predicate fetches
  /// first, so with unsaved changes it moves the context onto the newest data, or is refused
  /// for the conflicts that move meets (and deletes nothing).
  override func perform(_ edit: MBEdit, _ index: Int) throws {
    switch edit {
    case .deleteItemsHeavier, .deleteOwnersScoring:
      guard reference.contexts[index].isDirty else { break }
      let (kinds, state, keptSaved) = try fetchOutcome(index)
      if let state {
        if reference.contexts[index].base != reference.committed {
          counts["moving bulk delete", default: 0] += 1
        }
        move(index, to: state, keptSaved: keptSaved)
        break
      }
      do {
        try super.perform(edit, index)
        throw fail("context \(index): \(edit) went ahead, expected it refused for \(kinds)")
      } catch let error as ModelError {
        let reported = error.conflicts.map(\.kind.rawValue).sorted()
        guard error.code == .conflict, reported == kinds else {
          throw fail("context \(index): \(edit) threw \(error), expected conflicts \(kinds)")
        }
        note("context \(index): refused for conflicts \(kinds)", counting: "refused bulk delete")
        return
      }
    default: break
    }
    try super.perform(edit, index)
  }

  /// `model(for:)` of a saved object; in a context with unsaved changes that does not hold
  /// it, the lookup moves the context onto the newest data as a fetch does (a lookup whose
  /// move would meet conflicts, which `model(for:)` defers to the save, is left out).
  override func lookUp(_ index: Int) throws {
    let known = ids.keys.sorted()
    guard !known.isEmpty else { return }
    let serial = pick(known)
    let name = "context \(index)"
    if reference.contexts[index].isDirty && !reference.contexts[index].view.contains(serial) {
      let (kinds, state, keptSaved) = try fetchOutcome(index)
      guard let state else {
        note("\(name): model(for: #\(serial)) left out, it would defer conflicts \(kinds)")
        return
      }
      move(index, to: state, keptSaved: keptSaved)
      counts["moving lookup", default: 0] += 1
    }
    let expected = reference.contexts[index].view.contains(serial)
    note(
      "\(name): model(for: #\(serial)), expecting \(expected ? "it" : "nil")",
      counting: expected ? "lookup" : "lookup nil")
    try checkLookUp(serial, in: contexts[index], expected: expected, name)
  }
}
