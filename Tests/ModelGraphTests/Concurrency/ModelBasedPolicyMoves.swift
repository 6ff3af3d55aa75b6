// The reference's prediction of a save whose conflicts a merge policy settles, for the moves of
// items across contexts (`ModelBasedContextsTests`), by `MergePolicy`'s documented rules:
// - an attribute both wrote takes this context's value (last writer wins) or keeps the saved
//   one (store wins);
// - a to-one both set to different objects takes this context's target (last writer wins) or
//   keeps the saved one (store wins), and the other target's list loses the item;
// - a change to an object deleted since is dropped; a saved object's to-one set here to an
//   object deleted since keeps the saved target; a new object's reference to one follows the
//   deleted object's rule (an item of a deleted owner is deleted, an item kept by one loses
//   its keeper);
// - a deletion goes ahead with its rules applied to what the object is related to now (the
//   items an owner holds now are deleted, the ones it keeps now lose their keeper);
// - to-many lists merge as in a rebase without conflicts, and the to-one side decides where
//   the two sides then disagree.
// The order of a list these rules reshape is not predicted: such a save is compared with the
// lists as sets.

extension MBReference {
  /// The state a save of `context` settling `kinds` under `policy` (not
  /// ``MBPolicy/reject``) publishes; `attributeConflicts` are the attributes both wrote.
  ///
  /// - Returns: The state, and whether the order of every to-many list is predicted (the
  ///   plain ``rebase(_:keepingSaved:)`` leaves a whole graph: no rule above reshaped one).
  func settledRebase(
    _ context: MBContextModel, policy: MBPolicy, kinds: [String],
    attributeConflicts: Set<MBAttributeOf>
  ) -> (state: MBState, orderKnown: Bool) {
    let keeping = policy == .store ? attributeConflicts : []
    let plain = rebase(context, keepingSaved: keeping)
    let merged: Set<String> = ["attribute", "changedDeletedObject", "deletedChangedObject"]
    if Set(kinds).isSubset(of: merged) && plain.inverseProblems.isEmpty {
      return (plain, true)
    }
    let old = context.base
    let mine = context.view
    func deletedSince(_ serial: Int) -> Bool { old.contains(serial) && !committed.contains(serial) }
    // The objects deleted here, as they are now, for their rules to reach what they hold now.
    var state = plain
    for serial in context.footprint.deleted {
      state.owners[serial] = committed.owners[serial]
      state.items[serial] = committed.items[serial]
    }
    // To-one relationships of saved items: the winner of a collision, or the saved target
    // when the one chosen here is gone.
    for serial in context.footprint.relationships.sorted()
    where mine.items[serial] != nil && committed.items[serial] != nil {
      for relationship in [MBRelationship.owner, .keeper] {
        let previous = old.relationships(serial)[relationship] ?? []
        let after = mine.relationships(serial)[relationship] ?? []
        guard previous != after else { continue }
        let current = committed.relationships(serial)[relationship] ?? []
        let collided = current != previous && current != after
        let chosenGone = after.first.map(deletedSince) ?? false
        let winner = chosenGone || (collided && policy == .store) ? current : after
        state.setRelationship(relationship, of: serial, to: winner)
      }
    }
    // New items of an owner deleted since go with it.
    var deletions = context.footprint.deleted.sorted()
    for serial in context.inserted.sorted()
    where mine.items[serial]?.owner.map(deletedSince) == true {
      deletions.append(serial)
    }
    state.repairInverses()
    for serial in deletions where state.contains(serial) {
      state.apply(.delete(serial: serial), home: 0)
    }
    state.repairInverses()
    return (state, false)
  }
}

extension MBState {
  /// Makes both sides of every relationship agree, the to-one side deciding: an item's owner
  /// (keeper) lists it once, appended when missing, and no other owner lists it; a to-one at
  /// an object that is gone becomes `nil`.
  mutating func repairInverses() {
    for serial in items.keys.sorted() {
      if let owner = items[serial]!.owner, owners[owner] == nil { items[serial]!.owner = nil }
      if let keeper = items[serial]!.keeper, owners[keeper] == nil { items[serial]!.keeper = nil }
    }
    for serial in owners.keys.sorted() {
      var seenItems = Set<Int>()
      owners[serial]!.items.removeAll {
        items[$0]?.owner != serial || !seenItems.insert($0).inserted
      }
      var seenKept = Set<Int>()
      owners[serial]!.kept.removeAll {
        items[$0]?.keeper != serial || !seenKept.insert($0).inserted
      }
    }
    for serial in items.keys.sorted() {
      if let owner = items[serial]!.owner, !owners[owner]!.items.contains(serial) {
        owners[owner]!.items.append(serial)
      }
      if let keeper = items[serial]!.keeper, !owners[keeper]!.kept.contains(serial) {
        owners[keeper]!.kept.append(serial)
      }
    }
  }

  /// The graph with every to-many list sorted, to compare where their order is not predicted.
  var withSortedLists: MBState {
    var copy = self
    for key in copy.owners.keys {
      copy.owners[key]!.items.sort()
      copy.owners[key]!.kept.sort()
    }
    return copy
  }
}
