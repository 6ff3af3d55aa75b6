import ModelGraph

// The plain-Swift reference model of `ModelBasedContextsTests`: the committed state, and per
// context the state it reads (its base version with its own edits) and what its edits wrote.
// Objects are named by the test's serial numbers.

/// An owner as the reference holds it; `home` is the context that may change and delete it.
struct MBOwnerState: Equatable {
  var home: Int
  var vip: Bool
  var code: String
  var name: String
  var score: Int
  var tier: Int
  var items: [Int] = []
  var kept: [Int] = []
}

/// An item as the reference holds it.
struct MBItemState: Equatable {
  var home: Int
  var label: String
  var weight: Double
  var owner: Int?
  var keeper: Int?
}

/// A whole object graph: committed, or as one context reads it.
struct MBState: Equatable {
  var owners: [Int: MBOwnerState] = [:]
  var items: [Int: MBItemState] = [:]

  func contains(_ serial: Int) -> Bool { owners[serial] != nil || items[serial] != nil }

  /// The codes held by more than one owner.
  var duplicateCodes: Set<String> {
    var seen: [String: Int] = [:]
    for owner in owners.values { seen[owner.code, default: 0] += 1 }
    return Set(seen.filter { $0.value > 1 }.keys)
  }

  /// The attribute `attribute` of `serial`, as text for comparisons and messages.
  func value(_ serial: Int, _ attribute: MBAttribute) -> String? {
    if let owner = owners[serial] {
      switch attribute {
      case .code: return owner.code
      case .name: return owner.name
      case .score: return "\(owner.score)"
      case .tier: return owner.vip ? "\(owner.tier)" : nil
      case .label, .weight: return nil
      }
    }
    if let item = items[serial] {
      switch attribute {
      case .label: return item.label
      case .weight: return "\(item.weight)"
      default: return nil
      }
    }
    return nil
  }

  /// Every attribute of `serial` (a change of any is a change of the object).
  func attributes(_ serial: Int) -> [String?] {
    MBAttribute.allCases.map { value(serial, $0) }
  }

  /// The relationships of `serial`, each as the list of its targets.
  func relationships(_ serial: Int) -> [MBRelationship: [Int]] {
    if let owner = owners[serial] { return [.items: owner.items, .kept: owner.kept] }
    if let item = items[serial] {
      return [.owner: item.owner.map { [$0] } ?? [], .keeper: item.keeper.map { [$0] } ?? []]
    }
    return [:]
  }

  /// Sets one side of `relationship` of `serial` (the other side is the caller's).
  mutating func setRelationship(_ relationship: MBRelationship, of serial: Int, to targets: [Int]) {
    switch relationship {
    case .items: owners[serial]!.items = targets
    case .kept: owners[serial]!.kept = targets
    case .owner: items[serial]!.owner = targets.first
    case .keeper: items[serial]!.keeper = targets.first
    }
  }

  /// Where the two sides of a relationship disagree, or a relationship names a missing object.
  var inverseProblems: [String] {
    var problems: [String] = []
    for (serial, owner) in owners {
      for item in owner.items where items[item]?.owner != serial {
        problems.append("#\(serial).items holds #\(item), whose owner is not #\(serial)")
      }
      for item in owner.kept where items[item]?.keeper != serial {
        problems.append("#\(serial).kept holds #\(item), whose keeper is not #\(serial)")
      }
    }
    for (serial, item) in items {
      if let owner = item.owner, owners[owner]?.items.filter({ $0 == serial }).count != 1 {
        problems.append("#\(serial).owner is #\(owner), which does not list it once")
      }
      if let keeper = item.keeper, owners[keeper]?.kept.filter({ $0 == serial }).count != 1 {
        problems.append("#\(serial).keeper is #\(keeper), which does not list it once")
      }
    }
    return problems.sorted()
  }

  /// The graph with every object's home set to 0, to compare with what the engine holds.
  var withoutHomes: MBState {
    var copy = self
    for key in copy.owners.keys { copy.owners[key]!.home = 0 }
    for key in copy.items.keys { copy.items[key]!.home = 0 }
    return copy
  }

  /// What differs between `self` (expected) and `actual`, one line per object.
  func differences(from actual: MBState) -> [String] {
    var lines: [String] = []
    for serial in Set(owners.keys).union(actual.owners.keys).sorted()
    where owners[serial] != actual.owners[serial] {
      lines.append(
        "owner #\(serial): expected \(owners[serial].map { "\($0)" } ?? "none"), "
          + "got \(actual.owners[serial].map { "\($0)" } ?? "none")")
    }
    for serial in Set(items.keys).union(actual.items.keys).sorted()
    where items[serial] != actual.items[serial] {
      lines.append(
        "item #\(serial): expected \(items[serial].map { "\($0)" } ?? "none"), "
          + "got \(actual.items[serial].map { "\($0)" } ?? "none")")
    }
    return lines
  }
}

/// An attribute the test writes.
enum MBAttribute: String, CaseIterable, Hashable {
  case code, name, score, tier, label, weight
}

/// A relationship of the schema.
enum MBRelationship: String, CaseIterable, Hashable {
  case items, kept, owner, keeper

  var isToMany: Bool { self == .items || self == .kept }
}

/// A value written to an attribute.
enum MBValue: Equatable, CustomStringConvertible {
  case int(Int)
  case string(String)
  case double(Double)

  var description: String {
    switch self {
    case .int(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .double(let value): "\(value)"
    }
  }
}

/// Which side of a relationship an edit writes.
enum MBSide: String {
  /// The item's to-one (`item.owner = o`).
  case toOne
  /// The owner's to-many (`o.items.append(item)`, or `removeAll` to clear it).
  case toMany
}

/// One change a context makes; replayed onto newer committed states when it saves.
enum MBEdit: CustomStringConvertible {
  case insertOwner(serial: Int, vip: Bool, code: String, name: String, score: Int, tier: Int)
  /// `style` 0: insert, then set the relationships; 1: appended to its owner's items (inserted
  /// by that); 2: relationships set before the insert.
  case insertItem(serial: Int, label: String, weight: Double, owner: Int?, keeper: Int?, style: Int)
  case set(serial: Int, MBAttribute, MBValue)
  case setOwner(item: Int, owner: Int?, side: MBSide)
  case setKeeper(item: Int, keeper: Int?, side: MBSide)
  case reverseItems(owner: Int)
  case delete(serial: Int)
  /// `delete(model: MBItem.self, where: weight > limit)`.
  case deleteItemsHeavier(than: Double)
  /// `delete(model: MBOwner.self, where: score > limit, includeSubclasses:)`.
  case deleteOwnersScoring(above: Int, includeSubclasses: Bool)

  var description: String {
    switch self {
    case .insertOwner(let serial, let vip, let code, let name, let score, let tier):
      "insert \(vip ? "VIP" : "owner") #\(serial) code \(code) name \(name) score \(score)"
        + (vip ? " tier \(tier)" : "")
    case .insertItem(let serial, let label, let weight, let owner, let keeper, let style):
      "insert item #\(serial) label \"\(label)\" weight \(weight) owner \(mbName(owner)) "
        + "keeper \(mbName(keeper)) style \(style)"
    case .set(let serial, let attribute, let value): "set #\(serial).\(attribute) = \(value)"
    case .setOwner(let item, let owner, let side):
      "item #\(item).owner = \(mbName(owner)) (\(side))"
    case .setKeeper(let item, let keeper, let side):
      "item #\(item).keeper = \(mbName(keeper)) (\(side))"
    case .reverseItems(let owner): "reverse #\(owner).items"
    case .delete(let serial): "delete #\(serial)"
    case .deleteItemsHeavier(let limit): "delete items where weight > \(limit)"
    case .deleteOwnersScoring(let limit, let deep):
      "delete owners where score > \(limit)\(deep ? "" : ", exactly MBOwner")"
    }
  }
}

/// `#serial`, or `nil`.
func mbName(_ serial: Int?) -> String { serial.map { "#\($0)" } ?? "nil" }

/// What a context's unsaved edits wrote to objects of its base version, as the engine records
/// it for conflicts and `hasChanges`.
struct MBFootprint {
  var attributes: [Int: Set<MBAttribute>] = [:]
  var relationships: Set<Int> = []
  var deleted: Set<Int> = []
}

/// One context in the reference: the committed state it started on, what it reads, and its
/// unsaved edits.
struct MBContextModel {
  let index: Int
  var base = MBState()
  var view = MBState()
  var edits: [MBEdit] = []
  var inserted: Set<Int> = []
  var footprint = MBFootprint()

  /// Whether the engine's `hasChanges` should be true: a saved object written or deleted, or a
  /// new object still alive.
  var isDirty: Bool {
    !footprint.attributes.isEmpty || !footprint.relationships.isEmpty
      || !footprint.deleted.isEmpty || inserted.contains { view.contains($0) }
  }

  /// Moves to `committed` and forgets every edit.
  mutating func reset(to committed: MBState) {
    self = MBContextModel(index: index, base: committed, view: committed)
  }

  /// Applies `edit` to the view and records what it wrote to objects of the base.
  mutating func apply(_ edit: MBEdit) {
    edits.append(edit)
    let base = base
    var footprint = footprint
    var touched: [Int] = []
    view.apply(
      edit, home: index, touching: { touched.append($0) },
      deleting: { if base.contains($0) { footprint.deleted.insert($0) } })
    for serial in touched where base.contains(serial) { footprint.relationships.insert(serial) }
    switch edit {
    case .insertOwner(let serial, _, _, _, _, _), .insertItem(let serial, _, _, _, _, _):
      inserted.insert(serial)
    case .set(let serial, let attribute, _) where base.contains(serial):
      footprint.attributes[serial, default: []].insert(attribute)
    default: break
    }
    self.footprint = footprint
  }
}

extension MBState {
  /// Applies `edit` of context `home`; `touching` hears every object whose relationships it
  /// writes (either side), `deleting` every object it deletes (cascades included).
  mutating func apply(
    _ edit: MBEdit, home: Int, touching: (Int) -> Void = { _ in },
    deleting: (Int) -> Void = { _ in }
  ) {
    switch edit {
    case .insertOwner(let serial, let vip, let code, let name, let score, let tier):
      owners[serial] = MBOwnerState(
        home: home, vip: vip, code: code, name: name, score: score,
        tier: vip ? tier : 0)
    case .insertItem(let serial, let label, let weight, let owner, let keeper, _):
      items[serial] = MBItemState(
        home: home, label: label, weight: weight, owner: nil, keeper: nil)
      if let owner { setOwner(serial, owner, touching: touching) }
      if let keeper { setKeeper(serial, keeper, touching: touching) }
    case .set(let serial, let attribute, let value):
      switch (attribute, value) {
      case (.code, .string(let code)): owners[serial]!.code = code
      case (.name, .string(let name)): owners[serial]!.name = name
      case (.score, .int(let score)): owners[serial]!.score = score
      case (.tier, .int(let tier)): owners[serial]!.tier = tier
      case (.label, .string(let label)): items[serial]!.label = label
      case (.weight, .double(let weight)): items[serial]!.weight = weight
      default: preconditionFailure("\(attribute) cannot hold \(value)")
      }
    case .setOwner(let item, let owner, _):
      setOwner(item, owner, touching: touching)
    case .setKeeper(let item, let keeper, _):
      setKeeper(item, keeper, touching: touching)
    case .reverseItems(let owner):
      owners[owner]!.items.reverse()
      touching(owner)
    case .delete(let serial):
      delete(serial, touching: touching, deleting: deleting)
    case .deleteItemsHeavier(let limit):
      for serial in items.keys.sorted() where items[serial].map({ $0.weight > limit }) == true {
        delete(serial, touching: touching, deleting: deleting)
      }
    case .deleteOwnersScoring(let limit, let deep):
      for serial in owners.keys.sorted()
      where owners[serial].map({ $0.score > limit && (deep || !$0.vip) }) == true {
        delete(serial, touching: touching, deleting: deleting)
      }
    }
  }

  private mutating func setOwner(_ item: Int, _ owner: Int?, touching: (Int) -> Void) {
    touching(item)
    if let old = items[item]!.owner {
      owners[old]!.items.removeAll { $0 == item }
      touching(old)
    }
    items[item]!.owner = owner
    if let owner {
      owners[owner]!.items.append(item)
      touching(owner)
    }
  }

  private mutating func setKeeper(_ item: Int, _ keeper: Int?, touching: (Int) -> Void) {
    touching(item)
    if let old = items[item]!.keeper {
      owners[old]!.kept.removeAll { $0 == item }
      touching(old)
    }
    items[item]!.keeper = keeper
    if let keeper {
      owners[keeper]!.kept.append(item)
      touching(keeper)
    }
  }

  private mutating func delete(
    _ serial: Int, touching: (Int) -> Void, deleting: (Int) -> Void
  ) {
    if let owner = owners[serial] {
      // Cascade over its items, then nullify the items it keeps.
      for item in owner.items where items[item] != nil {
        delete(item, touching: touching, deleting: deleting)
      }
      for item in owners[serial]!.kept where items[item] != nil {
        items[item]!.keeper = nil
        touching(item)
      }
      owners[serial] = nil
      deleting(serial)
    } else if let item = items[serial] {
      if let owner = item.owner, owners[owner] != nil {
        owners[owner]!.items.removeAll { $0 == serial }
        touching(owner)
      }
      if let keeper = item.keeper, owners[keeper] != nil {
        owners[keeper]!.kept.removeAll { $0 == serial }
        touching(keeper)
      }
      items[serial] = nil
      deleting(serial)
    }
  }
}

/// What a save of one context should do.
enum MBSaveOutcome {
  /// Refused with ``ModelError/Code/conflict``, with conflicts of these kinds (sorted).
  case conflicts([String])
  /// Refused with ``ModelError/Code/validationFailed``: these codes would be held twice, in the
  /// state the context's edits replayed onto the newest committed state give.
  case duplicates(Set<String>, rebased: MBState)
  /// Saved: the new committed state, and the kinds of the conflicts the policy settled;
  /// without `orderKnown`, the order of the to-many lists the policy's rules reshaped is not
  /// predicted (see `settledRebase`).
  case saved(MBState, settled: [String], orderKnown: Bool = true)
}

/// The merge policy of a context in the reference.
enum MBPolicy: String {
  /// ``MergePolicy/rejectConflicts``.
  case reject
  /// ``MergePolicy/lastWriterWins``.
  case mine
  /// ``MergePolicy/storeWins``.
  case store
}

/// An attribute of one object.
struct MBAttributeOf: Hashable {
  var serial: Int
  var attribute: MBAttribute
}

/// The reference model: the committed state and every context's.
struct MBReference {
  var committed = MBState()
  var contexts: [MBContextModel]

  init(contexts count: Int) {
    contexts = (0..<count).map { MBContextModel(index: $0) }
  }

  /// What saving context `index` does, under ``MergePolicy/rejectConflicts``.
  ///
  /// The conflict rules are the engine's, as `ConflictDetectionTests` pins them: an attribute
  /// written here and changed elsewhere since (by value), a write here to an object deleted
  /// since, a reference here to an object deleted since, a to-one set on both sides to
  /// different objects, and a deletion here of an object changed elsewhere since.
  ///
  /// Under the other policies (`policy`), a save goes ahead whatever its conflicts, settled as
  /// `settledRebase` says: attributes and to-one targets take this context's value
  /// (``MBPolicy/mine``) or keep the saved one (``MBPolicy/store``), changes to objects deleted
  /// since are dropped, references to them follow their rules, deletions go ahead.
  func saveOutcome(of index: Int, policy: MBPolicy = .reject) -> MBSaveOutcome {
    let context = contexts[index]
    var attributeConflicts = Set<MBAttributeOf>()
    let kinds = conflicts(of: context, attributeConflicts: &attributeConflicts)
    if !kinds.isEmpty && policy == .reject { return .conflicts(kinds) }
    let (rebased, orderKnown) =
      kinds.isEmpty
      ? (rebase(context), true)
      : settledRebase(
        context, policy: policy, kinds: kinds, attributeConflicts: attributeConflicts)
    let duplicates = rebased.duplicateCodes
    if !duplicates.isEmpty { return .duplicates(duplicates, rebased: rebased) }
    return .saved(rebased, settled: kinds, orderKnown: orderKnown)
  }

  /// The context's changes replayed onto the committed state, as the engine's rebase does
  /// when nothing conflicts: new objects copied, written attributes copied, each written
  /// to-one set, each written to-many taken whole when nobody else changed it since the base
  /// and otherwise merged (the committed list without the members removed here, then the ones
  /// added here), deleted objects removed.
  func rebase(_ context: MBContextModel, keepingSaved: Set<MBAttributeOf> = []) -> MBState {
    let old = context.base
    let mine = context.view
    var rebased = committed
    func deletedSince(_ serial: Int) -> Bool { old.contains(serial) && !committed.contains(serial) }
    for serial in context.inserted.sorted() where mine.contains(serial) {
      rebased.owners[serial] = mine.owners[serial]
      rebased.items[serial] = mine.items[serial]
      for (relationship, targets) in mine.relationships(serial) {
        rebased.setRelationship(relationship, of: serial, to: targets.filter { !deletedSince($0) })
      }
    }
    for (serial, attributes) in context.footprint.attributes
    where mine.contains(serial) && committed.contains(serial) {
      for attribute in attributes
      where !keepingSaved.contains(MBAttributeOf(serial: serial, attribute: attribute)) {
        switch attribute {
        case .code: rebased.owners[serial]!.code = mine.owners[serial]!.code
        case .name: rebased.owners[serial]!.name = mine.owners[serial]!.name
        case .score: rebased.owners[serial]!.score = mine.owners[serial]!.score
        case .tier: rebased.owners[serial]!.tier = mine.owners[serial]!.tier
        case .label: rebased.items[serial]!.label = mine.items[serial]!.label
        case .weight: rebased.items[serial]!.weight = mine.items[serial]!.weight
        }
      }
    }
    for serial in context.footprint.relationships.sorted()
    where mine.contains(serial) && committed.contains(serial) {
      let before = old.relationships(serial)
      let now = committed.relationships(serial)
      for (relationship, after) in mine.relationships(serial) {
        let previous = before[relationship] ?? []
        guard previous != after else { continue }
        let current = now[relationship] ?? []
        if relationship.isToMany {
          if current == previous {
            rebased.setRelationship(
              relationship, of: serial, to: after.filter { !deletedSince($0) })
          } else {
            var merged = current.filter { after.contains($0) || !previous.contains($0) }
            for target in after
            where !previous.contains(target) && !deletedSince(target) && !merged.contains(target) {
              merged.append(target)
            }
            rebased.setRelationship(relationship, of: serial, to: merged)
          }
        } else if let chosen = after.first, deletedSince(chosen) {
          continue
        } else {
          rebased.setRelationship(relationship, of: serial, to: after)
        }
      }
    }
    for serial in context.footprint.deleted {
      rebased.owners[serial] = nil
      rebased.items[serial] = nil
    }
    return rebased
  }

  func conflicts(
    of context: MBContextModel, attributeConflicts: inout Set<MBAttributeOf>
  ) -> [String] {
    let old = context.base
    let now = committed
    let mine = context.view
    guard old != now else { return [] }
    func deletedSince(_ serial: Int) -> Bool { old.contains(serial) && !now.contains(serial) }
    var kinds: [String] = []
    for serial in context.inserted where mine.contains(serial) {
      for targets in mine.relationships(serial).values {
        kinds += targets.filter(deletedSince).map { _ in "referencesDeletedObject" }
      }
    }
    var reportedDeleted = Set<Int>()
    for (serial, attributes) in context.footprint.attributes where mine.contains(serial) {
      guard now.contains(serial) else {
        kinds.append("changedDeletedObject")
        reportedDeleted.insert(serial)
        continue
      }
      for attribute in attributes where old.value(serial, attribute) != now.value(serial, attribute)
      {
        kinds.append("attribute")
        attributeConflicts.insert(MBAttributeOf(serial: serial, attribute: attribute))
      }
    }
    for serial in context.footprint.relationships where mine.contains(serial) {
      let ownerGone = !now.contains(serial)
      let before = old.relationships(serial)
      let current = now.relationships(serial)
      for (relationship, after) in mine.relationships(serial) {
        let previous = before[relationship] ?? []
        guard previous != after else { continue }
        let added = after.filter { !previous.contains($0) }
        if ownerGone {
          if !added.isEmpty && reportedDeleted.insert(serial).inserted {
            kinds.append("changedDeletedObject")
          }
          continue
        }
        kinds += added.filter(deletedSince).map { _ in "referencesDeletedObject" }
        guard !relationship.isToMany else { continue }
        let theirs = current[relationship] ?? []
        if theirs != previous && theirs != after { kinds.append("relationship") }
      }
    }
    for serial in context.footprint.deleted where now.contains(serial) && old.contains(serial) {
      if old.attributes(serial) != now.attributes(serial)
        || old.relationships(serial) != now.relationships(serial)
      {
        kinds.append("deletedChangedObject")
      }
    }
    return kinds.sorted()
  }
}
