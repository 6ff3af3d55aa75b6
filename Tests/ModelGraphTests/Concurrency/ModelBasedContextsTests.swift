import Foundation
import ModelGraph
import Testing

/// Three contexts on one container, driven step by step by a seeded generator and checked
/// after every step against a plain-Swift reference model (`MBReference`).
///
/// Each object has a home context, the only one that changes its attributes or deletes it one
/// by one, so most edits replay onto the other contexts' saves without conflicts. What crosses
/// homes: probes (writes of an owner's score from another context), items moved to another
/// context's owner, another context's items moved to one's own owners (so that two contexts
/// set one to-one), bulk deletes by predicate, and unique codes drawn from a small pool. The
/// reference predicts the conflicts these cause by the rules `ConflictDetectionTests` pins, the
/// merge of the others (its `rebase`), and the refused saves of duplicate codes. A failure
/// prints the seed, the step and the log; `MODELFUZZ_SEED=n` runs one seed,
/// `MODELFUZZ_SEEDS=a-b` a range, `MODELFUZZ_STEPS=n` sets the steps, `MODELFUZZ_STATS=1`
/// prints what each run did, and `MODELFUZZ_TRACE=1` prints each operation as it runs (for a
/// crash).
@Suite("Concurrency: several contexts against a reference model")
struct ModelBasedContextsTests {
  static let environment = ProcessInfo.processInfo.environment
  /// Seeds 1 to 4, or `MODELFUZZ_SEED=n` alone, or `MODELFUZZ_SEEDS=first-last`.
  static let seeds: [UInt64] = {
    if let seed = environment["MODELFUZZ_SEED"].flatMap(UInt64.init) { return [seed] }
    let bounds = (environment["MODELFUZZ_SEEDS"] ?? "").split(separator: "-").compactMap {
      UInt64($0)
    }
    return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : Array(1...4)
  }()
  static let steps = environment["MODELFUZZ_STEPS"].flatMap(Int.init) ?? 150

  @Test(
    "random interleavings of three contexts agree with the reference model",
    .disabled(if: testsRunOnFetchedResidency, readsNewestWithUnsavedChanges),
    arguments: seeds)
  func interleavings(seed: UInt64) throws {
    let run = try MBRun(seed: seed, policies: [.reject, .reject, .reject], crossContext: true)
    if let failure = run.run(steps: Self.steps) { Issue.record(Comment(rawValue: failure)) }
    if Self.environment["MODELFUZZ_STATS"] != nil { print("seed \(seed): \(run.counts)") }
    #expect(run.saves > 0 && run.checks > 0)
  }

  /// The contexts reject conflicts, let their own values win, or let the saved ones win; only
  /// probes write across homes, so conflicts are of attributes, of changes to deleted owners
  /// and of deletions of changed ones, which each policy settles as `MergePolicy` says.
  @Test(
    "random interleavings under the three merge policies agree with the reference model",
    .disabled(if: testsRunOnFetchedResidency, readsNewestWithUnsavedChanges),
    arguments: seeds)
  func policies(seed: UInt64) throws {
    let run = try MBRun(seed: seed, policies: [.reject, .mine, .store], crossContext: false)
    if let failure = run.run(steps: Self.steps) { Issue.record(Comment(rawValue: failure)) }
    if Self.environment["MODELFUZZ_STATS"] != nil { print("policies seed \(seed): \(run.counts)") }
    #expect(run.saves > 0 && run.checks > 0)
  }

  /// Items move to other contexts' owners and bulk deletes reach every context's objects while
  /// the contexts let their own values win, let the saved ones win, or reject conflicts. The
  /// reference predicts how those policies settle the conflicts of such moves (which object
  /// each to-one points at, every value, which objects each list holds; `settledRebase`); where
  /// the rules reshape a to-many list, its order is not predicted, and what the save published
  /// becomes the reference's committed state once it agrees and is whole (both sides of every
  /// relationship agree, no code is held twice).
  @Test(
    "moves across contexts under every merge policy keep the graph whole",
    .disabled(if: testsRunOnFetchedResidency, readsNewestWithUnsavedChanges),
    arguments: seeds)
  func movesUnderPolicies(seed: UInt64) throws {
    let run = try MBRun(seed: seed, policies: [.mine, .store, .reject], crossContext: true)
    if let failure = run.run(steps: Self.steps) { Issue.record(Comment(rawValue: failure)) }
    if Self.environment["MODELFUZZ_STATS"] != nil { print("moves seed \(seed): \(run.counts)") }
    #expect(run.saves > 0 && run.checks > 0)
  }
}

/// A failed check, with what differed.
struct MBFailure: Error {
  let message: String
}

/// One seeded run: the container, its contexts, the reference model and the log.
///
/// `MBFetchedRun` subclasses it for PostgreSQL's `residency=fetched`, with its own checks.
class MBRun {
  let seed: UInt64
  var random: SplitMix64
  let container: ModelContainer
  let contexts: [ModelContext]
  var reference: MBReference
  /// Per context, the objects it inserted and has not saved, by serial.
  var newObjects: [[Int: ModelObject]]
  /// The identifiers of saved objects, live or deleted since.
  var ids: [Int: PersistentIdentifier] = [:]
  var deletedIDs: Set<Int> = []
  var log: [String] = []
  var step = 0
  var nextSerial = 1
  /// Counts, to show the run did something.
  var saves = 0
  var refusedSaves = 0
  var checks = 0
  var counts: [String: Int] = [:]
  let trace = ProcessInfo.processInfo.environment["MODELFUZZ_TRACE"] != nil

  static let codePool = (0..<12).map { "c\($0)" }
  static let names = ["ada", "bob", "cyd", "dee", "eve", "ove"]
  static let labels = ["red box", "blue cup", "green pen", "old map", "tin can"]

  /// Each context's merge policy.
  let policies: [MBPolicy]
  /// Whether items move to other contexts' owners and bulk deletes reach their objects.
  let crossContext: Bool

  /// A run whose contexts are on `containers` in turn (by default one new in-memory
  /// container); ``container`` is the first.
  init(
    seed: UInt64, policies: [MBPolicy], crossContext: Bool, containers: [ModelContainer]? = nil
  ) throws {
    let count = policies.count
    self.policies = policies
    self.crossContext = crossContext
    self.seed = seed
    random = SplitMix64(seed: seed)
    let containers =
      try containers ?? [
        makeInMemoryContainer(MBOwner.self, MBVIPOwner.self, MBItem.self)
      ]
    container = containers[0]
    contexts = policies.indices.map { index in
      let context = ModelContext(containers[index % containers.count])
      switch policies[index] {
      case .reject: context.mergePolicy = .rejectConflicts
      case .mine: context.mergePolicy = .lastWriterWins
      case .store: context.mergePolicy = .storeWins
      }
      return context
    }
    reference = MBReference(contexts: count)
    newObjects = Array(repeating: [:], count: count)
  }

  /// Runs `steps` steps, each checked; returns the failure report, or `nil`.
  func run(steps: Int) -> String? {
    do {
      for index in 1...steps {
        step = index
        let before = reference.committed
        let actor = try randomStep()
        try checkEverything(actor: actor, committedChanged: reference.committed != before)
      }
      return nil
    } catch {
      return report(error)
    }
  }

  /// The failure report of `error`: the seed, the step, how to replay them, and the log.
  func report(_ error: any Error) -> String {
    let message = (error as? MBFailure)?.message ?? "unexpected error: \(error)"
    return "seed \(seed), step \(step): \(message)\n"
      + "replay: MODELFUZZ_SEED=\(seed) MODELFUZZ_STEPS=\(step)\nlog:\n"
      + log.joined(separator: "\n")
  }

  // MARK: Randomness

  func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
  func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }
  func weight() -> Double { Double(int(0...20)) / 2 }
  func code() -> String { chance(35) ? pick(Self.codePool) : "u\(nextSerial)-\(step)" }

  func note(_ line: String, counting kind: String) {
    counts[kind, default: 0] += 1
    note(line)
  }

  func note(_ line: String) {
    log.append("\(step): \(line)")
    if trace { FileHandle.standardError.write(Data("\(seed) \(step): \(line)\n".utf8)) }
  }

  func fail(_ message: String) -> MBFailure { MBFailure(message: message) }

  // MARK: Steps

  /// Runs one random operation; returns the index of the context that ran it.
  func randomStep() throws -> Int {
    let index = int(0...contexts.count - 1)
    let view = reference.contexts[index].view
    let ownOwners = view.owners.filter { $0.value.home == index }.keys.sorted()
    let ownItems = view.items.filter { $0.value.home == index }.keys.sorted()
    let foreignOwners = view.owners.filter { $0.value.home != index }.keys.sorted()
    var choices: [(Int, () throws -> Void)] = []
    choices.append((ownOwners.count < 10 ? 8 : 1, { try self.insertOwner(index) }))
    choices.append((ownItems.count < 20 ? 10 : 1, { try self.insertItem(index, ownOwners) }))
    if !ownOwners.isEmpty {
      choices.append((8, { try self.updateOwner(index, self.pick(ownOwners)) }))
      choices.append(
        (
          ownOwners.count > 6 ? 6 : 2,
          { try self.perform(.delete(serial: self.pick(ownOwners)), index) }
        ))
      let reversible = ownOwners.filter { view.owners[$0]!.items.count >= 2 }
      if !reversible.isEmpty {
        choices.append(
          (2, { try self.perform(.reverseItems(owner: self.pick(reversible)), index) }))
      }
    }
    if !ownItems.isEmpty {
      choices.append((6, { try self.updateItem(index, self.pick(ownItems)) }))
      choices.append(
        (8, { try self.moveItem(index, self.pick(ownItems), ownOwners, keeper: false) }))
      choices.append(
        (4, { try self.moveItem(index, self.pick(ownItems), ownOwners, keeper: true) }))
      choices.append((4, { try self.perform(.delete(serial: self.pick(ownItems)), index) }))
    }
    if !foreignOwners.isEmpty {
      choices.append((4, { try self.probe(index, foreignOwners) }))
    }
    // Another context's item moved here: its home may move it too, to another owner (a
    // collision of the to-one), or delete it. Half the time, one another context moved and
    // has not saved yet.
    let foreignItems = view.items.filter { $0.value.home != index }.keys.sorted()
    let movedElsewhere = foreignItems.filter { serial in
      reference.contexts.indices.contains {
        $0 != index && reference.contexts[$0].footprint.relationships.contains(serial)
      }
    }
    if crossContext && !foreignItems.isEmpty {
      choices.append(
        (
          3,
          {
            let item = self.pick(
              movedElsewhere.isEmpty || self.chance(50) ? foreignItems : movedElsewhere)
            try self.moveItem(index, item, ownOwners, keeper: self.chance(40))
          }
        ))
    }
    choices.append(
      (
        crossContext ? 1 : 0,
        { try self.perform(.deleteItemsHeavier(than: Double(self.int(16...20)) / 2), index) }
      ))
    choices.append(
      (
        crossContext ? 1 : 0,
        {
          try self.perform(
            .deleteOwnersScoring(above: self.int(16...20), includeSubclasses: self.chance(50)),
            index)
        }
      ))
    choices.append((10, { try self.save(index) }))
    choices.append((2, { self.rollback(index) }))
    choices.append((3, { try self.lookUp(index) }))
    var roll = int(1...choices.reduce(0) { $0 + $1.0 })
    for (weight, action) in choices {
      roll -= weight
      if roll <= 0 {
        try action()
        break
      }
    }
    return index
  }

  /// Writes the score of an owner whose home is another context.
  func probe(_ index: Int, _ foreignOwners: [Int]) throws {
    counts["probe", default: 0] += 1
    try perform(.set(serial: pick(foreignOwners), .score, .int(int(0...20))), index)
  }

  func insertOwner(_ index: Int) throws {
    let vip = chance(30)
    let serial = nextSerial
    nextSerial += 1
    try perform(
      .insertOwner(
        serial: serial, vip: vip, code: code(), name: pick(Self.names), score: int(0...20),
        tier: int(1...3)), index)
  }

  func insertItem(_ index: Int, _ owners: [Int]) throws {
    let serial = nextSerial
    nextSerial += 1
    let owner = owners.isEmpty || chance(20) ? nil : pick(owners)
    let keeper = owners.isEmpty || chance(50) ? nil : pick(owners)
    let style = owner == nil ? pick([0, 2]) : int(0...2)
    try perform(
      .insertItem(
        serial: serial, label: pick(Self.labels), weight: weight(), owner: owner, keeper: keeper,
        style: style), index)
  }

  func updateOwner(_ index: Int, _ serial: Int) throws {
    let owner = reference.contexts[index].view.owners[serial]!
    switch int(0...(owner.vip ? 3 : 2)) {
    case 0: try perform(.set(serial: serial, .code, .string(code())), index)
    case 1: try perform(.set(serial: serial, .name, .string(pick(Self.names))), index)
    case 2: try perform(.set(serial: serial, .score, .int(int(0...20))), index)
    default: try perform(.set(serial: serial, .tier, .int(int(1...3))), index)
    }
  }

  func updateItem(_ index: Int, _ serial: Int) throws {
    if chance(50) {
      try perform(.set(serial: serial, .label, .string(pick(Self.labels))), index)
    } else {
      try perform(.set(serial: serial, .weight, .double(weight())), index)
    }
  }

  /// Moves an item of context `index` to another owner or to none: usually one of its own
  /// owners, sometimes any owner it reads (another context's, whose list then merges with that
  /// context's edits, or conflicts with its deletion).
  func moveItem(_ index: Int, _ item: Int, _ ownOwners: [Int], keeper: Bool) throws {
    let view = reference.contexts[index].view
    let owners = crossContext && chance(25) ? view.owners.keys.sorted() : ownOwners
    let state = view.items[item]!
    let current = keeper ? state.keeper : state.owner
    let targets: [Int?] = owners.filter { $0 != current } + (current == nil ? [] : [nil])
    guard !targets.isEmpty else { return }
    let target = pick(targets)
    let side: MBSide = chance(50) ? .toOne : .toMany
    try perform(
      keeper
        ? .setKeeper(item: item, keeper: target, side: side)
        : .setOwner(item: item, owner: target, side: side), index)
  }

  /// Applies `edit` in context `index` and in the reference.
  func perform(_ edit: MBEdit, _ index: Int) throws {
    note(
      "context \(index): \(edit)",
      counting: "\(edit)".split(separator: " ").first.map(String.init) ?? "")
    let view = reference.contexts[index].view
    let context = contexts[index]
    switch edit {
    case .insertOwner(let serial, let vip, let code, let name, let score, let tier):
      let owner =
        vip
        ? MBVIPOwner(serial: serial, code: code, name: name, score: score, tier: tier)
        : MBOwner(serial: serial, code: code, name: name, score: score)
      context.insert(owner)
      newObjects[index][serial] = owner
    case .insertItem(let serial, let label, let weight, let owner, let keeper, let style):
      let item = MBItem(serial: serial, label: label, weight: weight)
      let ownerHandle = try owner.map { try handle($0, index, as: MBOwner.self) }
      let keeperHandle = try keeper.map { try handle($0, index, as: MBOwner.self) }
      switch style {
      case 0:
        context.insert(item)
        if let ownerHandle { item.owner = ownerHandle }
        if let keeperHandle { item.keeper = keeperHandle }
      case 1:
        ownerHandle!.items.append(item)
        if let keeperHandle { item.keeper = keeperHandle }
      default:
        item.owner = ownerHandle
        item.keeper = keeperHandle
        context.insert(item)
      }
      newObjects[index][serial] = item
    case .set(let serial, let attribute, let value):
      switch (attribute, value) {
      case (.code, .string(let code)): try handle(serial, index, as: MBOwner.self).code = code
      case (.name, .string(let name)): try handle(serial, index, as: MBOwner.self).name = name
      case (.score, .int(let score)): try handle(serial, index, as: MBOwner.self).score = score
      case (.tier, .int(let tier)): try handle(serial, index, as: MBVIPOwner.self).tier = tier
      case (.label, .string(let label)): try handle(serial, index, as: MBItem.self).label = label
      case (.weight, .double(let weight)):
        try handle(serial, index, as: MBItem.self).weight = weight
      default: throw fail("no such write: \(edit)")
      }
    case .setOwner(let item, let owner, let side):
      let itemHandle = try handle(item, index, as: MBItem.self)
      switch (side, owner) {
      case (.toOne, _): itemHandle.owner = try owner.map { try handle($0, index, as: MBOwner.self) }
      case (.toMany, let owner?):
        try handle(owner, index, as: MBOwner.self).items.append(itemHandle)
      case (.toMany, nil):
        let old = try handle(view.items[item]!.owner!, index, as: MBOwner.self)
        old.items.removeAll { $0 === itemHandle }
      }
    case .setKeeper(let item, let keeper, let side):
      let itemHandle = try handle(item, index, as: MBItem.self)
      switch (side, keeper) {
      case (.toOne, _):
        itemHandle.keeper = try keeper.map { try handle($0, index, as: MBOwner.self) }
      case (.toMany, let keeper?):
        try handle(keeper, index, as: MBOwner.self).kept.append(itemHandle)
      case (.toMany, nil):
        let old = try handle(view.items[item]!.keeper!, index, as: MBOwner.self)
        old.kept.removeAll { $0 === itemHandle }
      }
    case .reverseItems(let owner):
      let ownerHandle = try handle(owner, index, as: MBOwner.self)
      ownerHandle.items = ownerHandle.items.reversed()
    case .deleteItemsHeavier(let limit):
      try context.delete(model: MBItem.self, where: #Predicate { $0.weight > limit })
    case .deleteOwnersScoring(let limit, let deep):
      try context.delete(
        model: MBOwner.self, where: #Predicate { $0.score > limit }, includeSubclasses: deep)
    case .delete(let serial):
      if view.owners[serial] != nil {
        context.delete(try handle(serial, index, as: MBOwner.self))
      } else {
        context.delete(try handle(serial, index, as: MBItem.self))
      }
    }
    reference.contexts[index].apply(edit)
    let after = reference.contexts[index].view
    newObjects[index] = newObjects[index].filter { after.contains($0.key) }
  }

  /// The handle of `serial` in context `index`: the inserted object, or `model(for:)`.
  func handle<T: PersistentModel>(_ serial: Int, _ index: Int, as type: T.Type) throws -> T {
    if let object = newObjects[index][serial] {
      guard let typed = object as? T else { throw fail("new #\(serial) is not a \(T.self)") }
      return typed
    }
    guard let id = ids[serial] else { throw fail("#\(serial) has no identifier") }
    guard let model = contexts[index].model(for: id) else {
      throw fail("context \(index): model(for: \(id)) of #\(serial) is nil")
    }
    guard let typed = model as? T, serialOf(typed) == serial else {
      throw fail("context \(index): model(for: \(id)) is \(model), not #\(serial) as \(T.self)")
    }
    return typed
  }

  func serialOf(_ model: any PersistentModel) -> Int? {
    (model as? MBOwner)?.serial ?? (model as? MBItem)?.serial
  }

  func save(_ index: Int) throws {
    let outcome = reference.saveOutcome(of: index, policy: policies[index])
    switch outcome {
    case .saved(let state, _, _), .duplicates(_, let state):
      let problems = state.inverseProblems
      if !problems.isEmpty {
        throw fail(
          "context \(index): the reference's rebase breaks inverses:\n"
            + problems.joined(separator: "\n"))
      }
    case .conflicts: break
    }
    let context = contexts[index]
    var error: ModelError?
    do {
      try context.save()
    } catch let thrown as ModelError {
      error = thrown
    }
    switch outcome {
    case .saved(let state, let settled, let orderKnown):
      note(
        "context \(index): save" + (settled.isEmpty ? "" : ", settling conflicts \(settled)")
          + (orderKnown ? "" : " (list order not predicted)"),
        counting: "saved")
      for kind in settled { counts["settled " + kind, default: 0] += 1 }
      if let error { throw fail("context \(index): save threw \(error), expected to save") }
      saves += 1
      if orderKnown {
        commit(state, savedBy: index)
      } else {
        counts["settled, order not predicted", default: 0] += 1
        try commitSettledSave(index, predicted: state, settled: settled)
      }
    case .conflicts(let kinds):
      note("context \(index): save, refused for conflicts \(kinds)", counting: "conflicts")
      guard let error, error.code == .conflict else {
        throw fail(
          "context \(index): save gave \(error.map { "\($0)" } ?? "no error"), expected conflicts \(kinds)"
        )
      }
      let reported = error.conflicts.map(\.kind.rawValue).sorted()
      if reported != kinds {
        throw fail("context \(index): conflicts \(reported), expected \(kinds): \(error)")
      }
      refusedSaves += 1
      for kind in kinds { counts[kind, default: 0] += 1 }
      rollback(index)
    case .duplicates(let codes, let rebased):
      note(
        "context \(index): save, refused for duplicate codes \(codes.sorted())",
        counting: "duplicates")
      guard let error, error.code == .validationFailed else {
        throw fail(
          "context \(index): save gave \(error.map { "\($0)" } ?? "no error"), expected duplicate codes \(codes.sorted())"
        )
      }
      refusedSaves += 1
      // The save moved the context onto the newest committed state, its edits replayed.
      reference.contexts[index].base = reference.committed
      reference.contexts[index].view = rebased
      let model = reference.contexts[index]
      let mine = rebased.owners.keys.sorted().filter { serial in
        let owner = rebased.owners[serial]!
        return owner.home == index && codes.contains(owner.code)
          && (model.inserted.contains(serial)
            || model.footprint.attributes[serial]?.contains(.code) == true)
      }
      // Under another policy the rebase also dropped the settled writes from the changes,
      // which the reference does not follow: roll back.
      if chance(50) || mine.isEmpty || policies[index] != .reject {
        rollback(index)
      } else {
        for serial in mine {
          try perform(.set(serial: serial, .code, .string("f\(step)-\(serial)")), index)
        }
      }
    }
  }

  /// After a save of context `index` that settled `settled` under its policy, reshaping to-many
  /// lists in an order the reference does not predict: the graph a fresh context reads must be
  /// whole and agree with `predicted` but for that order; it becomes the committed state (each
  /// object keeping its home).
  func commitSettledSave(_ index: Int, predicted: MBState, settled: [String]) throws {
    var saved = try readGraph(ModelContext(container), "a fresh context")
    let problems = saved.inverseProblems
    if !problems.isEmpty {
      throw fail(
        "context \(index): the save settling \(settled) broke inverses:\n"
          + problems.joined(separator: "\n"))
    }
    let differences = predicted.withoutHomes.withSortedLists.differences(
      from: saved.withSortedLists)
    if !differences.isEmpty {
      throw fail(
        "context \(index): the save settling \(settled) under \(policies[index]) published "
          + "another graph than predicted (lists compared as sets):\n"
          + differences.joined(separator: "\n"))
    }
    for serial in saved.owners.keys { saved.owners[serial]!.home = predicted.owners[serial]!.home }
    for serial in saved.items.keys { saved.items[serial]!.home = predicted.items[serial]!.home }
    commit(saved, savedBy: index)
  }

  /// Makes `state`, which context `index` just saved, the committed state: the identifiers of
  /// the objects it inserted are known from now on, and those of objects gone are deleted.
  func commit(_ state: MBState, savedBy index: Int) {
    for (serial, object) in newObjects[index] where state.contains(serial) {
      ids[serial] = object.persistentModelID
    }
    newObjects[index] = [:]
    for serial in ids.keys where !state.contains(serial) { deletedIDs.insert(serial) }
    reference.committed = state
    reference.contexts[index].reset(to: state)
  }

  func rollback(_ index: Int) {
    note("context \(index): rollback", counting: "rollback")
    contexts[index].rollback()
    newObjects[index] = [:]
    reference.contexts[index].reset(to: reference.committed)
  }

  func lookUp(_ index: Int) throws {
    let known = ids.keys.sorted()
    guard !known.isEmpty else { return }
    let serial = pick(known)
    let expected = reference.contexts[index].view.contains(serial)
    note(
      "context \(index): model(for: #\(serial)), expecting \(expected ? "it" : "nil")",
      counting: expected ? "lookup" : "lookup nil")
    try checkLookUp(serial, in: contexts[index], expected: expected, "context \(index)")
  }

  func checkLookUp(_ serial: Int, in context: ModelContext, expected: Bool, _ name: String) throws {
    let found = context.model(for: ids[serial]!)
    if expected, found.flatMap(serialOf) != serial {
      throw fail("\(name): model(for: #\(serial)) gave \(found.map { "\($0)" } ?? "nil")")
    }
    if !expected, let found {
      throw fail("\(name): model(for: #\(serial)) gave \(found), expected nil")
    }
  }

  // MARK: Checks

  /// Checks every context after a step by `actor`: whether it has changes, and random fetches
  /// (counted and identified too); the whole graph as the actor reads it, and, after a save
  /// (which moves the clean contexts and changes what a new context reads), as every context
  /// and a fresh one read it; lookups of deleted and live objects in a fresh context.
  func checkEverything(actor: Int, committedChanged: Bool) throws {
    checks += 1
    for index in contexts.indices {
      let dirty = reference.contexts[index].isDirty
      if contexts[index].hasChanges != dirty {
        throw fail("context \(index): hasChanges is \(!dirty), expected \(dirty)")
      }
      // A fetch takes a clean context to the newest committed state.
      if !dirty { reference.contexts[index].reset(to: reference.committed) }
    }
    for index in contexts.indices {
      let name = "context \(index)"
      try checkQueries(contexts[index], reference.contexts[index].view, name)
      if index == actor || committedChanged {
        try checkGraph(contexts[index], reference.contexts[index].view, name)
      }
    }
    let fresh = ModelContext(container)
    if committedChanged { try checkGraph(fresh, reference.committed, "a fresh context") }
    try checkQueries(fresh, reference.committed, "a fresh context")
    for serial in deletedIDs.sorted().suffix(2) {
      try checkLookUp(serial, in: fresh, expected: false, "a fresh context")
    }
    let live = ids.keys.filter { !deletedIDs.contains($0) }.sorted()
    if !live.isEmpty {
      try checkLookUp(pick(live), in: fresh, expected: true, "a fresh context")
    }
  }

  /// Every object `context` fetches, with its values and both sides of each relationship.
  func checkGraph(_ context: ModelContext, _ expected: MBState, _ name: String) throws {
    let actual = try readGraph(context, name)
    let differences = expected.withoutHomes.differences(from: actual)
    if !differences.isEmpty {
      let identifiers = (actual.owners.keys.sorted() + actual.items.keys.sorted()).map { "#\($0)" }
      throw fail(
        "\(name) reads a wrong graph:\n" + differences.joined(separator: "\n")
          + "\nread: " + identifiers.joined(separator: ", ") + "\nsaved: "
          + ids.sorted { $0.key < $1.key }.map { "#\($0.key) \($0.value)" }.joined(separator: ", "))
    }
  }

  /// Every object `context` fetches, with its values and both sides of each relationship
  /// (homes 0).
  func readGraph(_ context: ModelContext, _ name: String) throws -> MBState {
    var actual = MBState()
    let owners = try context.fetch(FetchDescriptor<MBOwner>())
    for owner in owners {
      let vip = owner as? MBVIPOwner
      actual.owners[owner.serial] = MBOwnerState(
        home: 0, vip: vip != nil, code: owner.code, name: owner.name, score: owner.score,
        tier: vip?.tier ?? 0, items: owner.items.map(\.serial), kept: owner.kept.map(\.serial))
    }
    let items = try context.fetch(FetchDescriptor<MBItem>())
    for item in items {
      actual.items[item.serial] = MBItemState(
        home: 0, label: item.label, weight: item.weight, owner: item.owner?.serial,
        keeper: item.keeper?.serial)
    }
    if owners.count != actual.owners.count || items.count != actual.items.count {
      throw fail("\(name): a fetch of every object returned one twice")
    }
    return actual
  }

  /// A random fetch of owners, of VIP owners or of items: the objects, in order, their count,
  /// and (at times) their identifiers.
  func checkQueries(_ context: ModelContext, _ view: MBState, _ name: String) throws {
    switch int(0...4) {
    case 0, 1:
      let owners = ownerQuery(view)
      try check(owners.0, owners.1, owners.2, context, name)
    case 2:
      let vips = vipQuery(view)
      try check(vips.0, vips.1, vips.2, context, name)
    default:
      let items = itemQuery(view)
      try check(items.0, items.1, items.2, context, name)
    }
  }

  func check<T: PersistentModel>(
    _ text: String, _ descriptor: FetchDescriptor<T>, _ want: [Int],
    _ context: ModelContext, _ name: String
  ) throws {
    checks += 1
    let fetched = try context.fetch(descriptor)
    let serials = fetched.compactMap(serialOf)
    let sorted = !descriptor.sortBy.isEmpty
    if (sorted ? serials : serials.sorted()) != want || serials.count != fetched.count {
      throw fail("\(name): fetch \(text) gave \(serials), expected \(want)")
    }
    let count = try context.fetchCount(descriptor)
    if count != want.count {
      throw fail("\(name): fetchCount \(text) gave \(count), expected \(want.count)")
    }
    if chance(20) {
      let batchSize = int(1...4)
      let batched = try context.fetch(descriptor, batchSize: batchSize).compactMap(serialOf)
      if batched != serials {
        throw fail(
          "\(name): fetch \(text) in batches of \(batchSize) gave \(batched), not \(serials)")
      }
    }
    guard chance(30) else { return }
    let identifiers = try context.fetchIdentifiers(descriptor)
    if identifiers != fetched.map(\.persistentModelID) {
      throw fail("\(name): fetchIdentifiers \(text) disagrees with fetch")
    }
  }

  /// The window of a sorted fetch: an offset and a limit, each maybe absent.
  func window<T>(_ descriptor: inout FetchDescriptor<T>, _ text: inout String) -> (Int, Int?) {
    guard !descriptor.sortBy.isEmpty, chance(50) else { return (0, nil) }
    let offset = chance(50) ? int(0...4) : nil
    let limit = chance(70) ? int(0...6) : nil
    descriptor.fetchOffset = offset
    descriptor.fetchLimit = limit
    text += " offset \(offset.map(String.init) ?? "-") limit \(limit.map(String.init) ?? "-")"
    return (offset ?? 0, limit)
  }

  func windowed(_ serials: [Int], _ offset: Int, _ limit: Int?) -> [Int] {
    let rest = Array(serials.dropFirst(offset))
    return limit.map { Array(rest.prefix($0)) } ?? rest
  }

  func ownerQuery(_ view: MBState) -> (String, FetchDescriptor<MBOwner>, [Int]) {
    let (text, predicate, test) = ownerFilter(view)
    var descriptor = FetchDescriptor<MBOwner>(predicate: predicate)
    var description = "owners where \(text)"
    var candidates = view.owners.filter { test($0.value) }
    if chance(20) {
      descriptor.includesSubclasses = false
      description += ", exactly MBOwner"
      candidates = candidates.filter { !$0.value.vip }
    }
    let order: (MBOwnerState, Int, MBOwnerState, Int) -> Bool
    switch int(0...4) {
    case 0:
      order = { _, a, _, b in a < b }
    case 1:
      descriptor.sortBy = [SortDescriptor(\.score), SortDescriptor(\.serial)]
      description += ", by score, serial"
      order = { x, a, y, b in (x.score, a) < (y.score, b) }
    case 2:
      descriptor.sortBy = [SortDescriptor(\.score, order: .reverse), SortDescriptor(\.serial)]
      description += ", by score descending, serial"
      order = { x, a, y, b in x.score != y.score ? x.score > y.score : a < b }
    case 3:
      descriptor.sortBy = [SortDescriptor(\.name), SortDescriptor(\.serial)]
      description += ", by name, serial"
      order = { x, a, y, b in (x.name, a) < (y.name, b) }
    default:
      descriptor.sortBy = [SortDescriptor(\.serial, order: .reverse)]
      description += ", by serial descending"
      order = { _, a, _, b in a > b }
    }
    let (offset, limit) = window(&descriptor, &description)
    let serials = candidates.sorted { order($0.value, $0.key, $1.value, $1.key) }.map(\.key)
    return (description, descriptor, windowed(serials, offset, limit))
  }

  func ownerFilter(_ view: MBState) -> (String, Predicate<MBOwner>?, (MBOwnerState) -> Bool) {
    switch int(0...10) {
    case 0:
      let k = int(0...20)
      return ("score >= \(k)", #Predicate { $0.score >= k }, { $0.score >= k })
    case 1:
      let low = int(0...15)
      let high = low + int(0...8)
      return (
        "\(low) <= score < \(high)", #Predicate { $0.score >= low && $0.score < high },
        { $0.score >= low && $0.score < high }
      )
    case 2:
      let part = pick(["a", "e", "o", "bo", "ve", "d"])
      return (
        "name contains \(part)", #Predicate { $0.name.contains(part) }, { $0.name.contains(part) }
      )
    case 3:
      let count = int(0...3)
      return (
        "items.count >= \(count)", #Predicate { $0.items.count >= count },
        { $0.items.count >= count }
      )
    case 4:
      return ("is MBVIPOwner", #Predicate { $0 is MBVIPOwner }, { $0.vip })
    case 5:
      let k = int(0...20)
      return (
        "!(is MBVIPOwner) && score < \(k)", #Predicate { !($0 is MBVIPOwner) && $0.score < k },
        { !$0.vip && $0.score < k }
      )
    case 6:
      let code = pick(Self.codePool)
      return ("code == \(code)", #Predicate { $0.code == code }, { $0.code == code })
    case 7:
      let limit = weight()
      return (
        "items contain weight > \(limit)", #Predicate { $0.items.contains { $0.weight > limit } },
        { $0.items.contains { view.items[$0]!.weight > limit } }
      )
    case 8:
      return ("kept is empty", #Predicate { $0.kept.isEmpty }, { $0.kept.isEmpty })
    case 9:
      let tier = int(1...3)
      return (
        "(as? MBVIPOwner)?.tier == \(tier)", #Predicate { ($0 as? MBVIPOwner)?.tier == tier },
        { $0.vip && $0.tier == tier }
      )
    default:
      return ("true", nil, { _ in true })
    }
  }

  func vipQuery(_ view: MBState) -> (String, FetchDescriptor<MBVIPOwner>, [Int]) {
    let tier = int(1...3)
    let k = int(0...20)
    var descriptor: FetchDescriptor<MBVIPOwner>
    var description: String
    let candidates: [Int]
    if chance(50) {
      descriptor = FetchDescriptor(predicate: #Predicate { $0.tier >= tier })
      description = "VIP owners where tier >= \(tier)"
      candidates = view.owners.filter { $0.value.vip && $0.value.tier >= tier }.map(\.key)
    } else {
      descriptor = FetchDescriptor(predicate: #Predicate { $0.score < k || $0.kept.count > 1 })
      description = "VIP owners where score < \(k) || kept.count > 1"
      candidates = view.owners.filter {
        $0.value.vip && ($0.value.score < k || $0.value.kept.count > 1)
      }
      .map(\.key)
    }
    var serials = candidates.sorted()
    if chance(50) {
      descriptor.sortBy = [SortDescriptor(\.tier), SortDescriptor(\.serial)]
      description += ", by tier, serial"
      serials.sort { (view.owners[$0]!.tier, $0) < (view.owners[$1]!.tier, $1) }
    }
    let (offset, limit) = window(&descriptor, &description)
    return (description, descriptor, windowed(serials, offset, limit))
  }

  func itemQuery(_ view: MBState) -> (String, FetchDescriptor<MBItem>, [Int]) {
    let (text, predicate, test) = itemFilter(view)
    var descriptor = FetchDescriptor<MBItem>(predicate: predicate)
    var description = "items where \(text)"
    let candidates = view.items.filter { test($0.value) }
    let order: (MBItemState, Int, MBItemState, Int) -> Bool
    switch int(0...4) {
    case 0:
      order = { _, a, _, b in a < b }
    case 1:
      descriptor.sortBy = [SortDescriptor(\.weight), SortDescriptor(\.serial)]
      description += ", by weight, serial"
      order = { x, a, y, b in (x.weight, a) < (y.weight, b) }
    case 2:
      descriptor.sortBy = [SortDescriptor(\.label), SortDescriptor(\.serial, order: .reverse)]
      description += ", by label, serial descending"
      order = { x, a, y, b in x.label != y.label ? x.label < y.label : a > b }
    case 3:
      descriptor.sortBy = [SortDescriptor(\.weight, order: .reverse), SortDescriptor(\.serial)]
      description += ", by weight descending, serial"
      order = { x, a, y, b in x.weight != y.weight ? x.weight > y.weight : a < b }
    default:
      descriptor.sortBy = [SortDescriptor(\.serial)]
      description += ", by serial"
      order = { _, a, _, b in a < b }
    }
    let (offset, limit) = window(&descriptor, &description)
    let serials = candidates.sorted { order($0.value, $0.key, $1.value, $1.key) }.map(\.key)
    return (description, descriptor, windowed(serials, offset, limit))
  }

  func itemFilter(_ view: MBState) -> (String, Predicate<MBItem>?, (MBItemState) -> Bool) {
    switch int(0...8) {
    case 0:
      let limit = weight()
      return ("weight > \(limit)", #Predicate { $0.weight > limit }, { $0.weight > limit })
    case 1:
      let low = weight()
      let high = low + Double(int(0...6))
      return (
        "\(low) <= weight <= \(high)", #Predicate { $0.weight >= low && $0.weight <= high },
        { $0.weight >= low && $0.weight <= high }
      )
    case 2:
      let k = int(0...20)
      return (
        "(owner?.score ?? -1) >= \(k)", #Predicate { ($0.owner?.score ?? -1) >= k },
        { ($0.owner.map { view.owners[$0]!.score } ?? -1) >= k }
      )
    case 3:
      return ("owner == nil", #Predicate { $0.owner == nil }, { $0.owner == nil })
    case 4:
      let part = pick(["e", "box", "o", "an", "p"])
      return (
        "label contains \(part)", #Predicate { $0.label.contains(part) },
        { $0.label.contains(part) }
      )
    case 5:
      let name = pick(Self.names)
      return (
        "keeper?.name == \(name)", #Predicate { $0.keeper?.name == name },
        { $0.keeper.map { view.owners[$0]!.name } == name }
      )
    case 6:
      let code = pick(Self.codePool)
      return (
        "owner?.code == \(code)", #Predicate { $0.owner?.code == code },
        { $0.owner.map { view.owners[$0]!.code } == code }
      )
    case 7:
      return (
        "keeper == nil && owner != nil", #Predicate { $0.keeper == nil && $0.owner != nil },
        { $0.keeper == nil && $0.owner != nil }
      )
    default:
      return ("true", nil, { _ in true })
    }
  }
}
