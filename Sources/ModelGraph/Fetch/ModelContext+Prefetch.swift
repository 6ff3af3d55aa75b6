import ModelGraphCore

extension ModelContext {
  /// Resolves the relationships `keyPaths` names for every object of `results` in one pass:
  /// the related objects are created (or found) once and kept by the context, per object and
  /// relationship, until the next prefetching fetch (or a save or rollback, or until the
  /// objects of `results` are all freed), so reading the relationships afterwards neither
  /// creates nor looks up objects (``PrefetchedRelations``).
  ///
  /// The slots of the relationships are found once per class met (results of a deep fetch
  /// come from several tables). An owner the previous prefetch resolved, while its lists still
  /// hold (``reusablePrefetch``), takes its lists from it as they are. The other owners are
  /// resolved in batches, one per working table and relationship (``PrefetchBatch``): the
  /// related keys of all the batch's owners are gathered in one call, then turned into objects
  /// in one pass over the identity map, then handed to each owner's list; no closure call and
  /// no lookup of the table or class per owner. A key path that names no relationship is
  /// ignored.
  /// - Complexity: O(results × key paths + related objects).
  func prefetch<T: PersistentModel>(
    _ keyPaths: [any PartialKeyPath<T> & Sendable], of results: [T]
  ) {
    let names = keyPaths.compactMap { keyPath -> String? in
      guard case .relationship(let name) = KeyPathResolution.property(keyPath) else { return nil }
      return name
    }
    guard !names.isEmpty else { return }
    var layout = PrefetchLayout(count: names.count)
    var owners: [ObjectKey] = []
    owners.reserveCapacity(results.count)
    for object in results {
      guard let table = object._table else { continue }
      layout.meet(table.entity, names: names)
      object._prefetchIndex = Int32(truncatingIfNeeded: owners.count)
      owners.append(object._key)
    }
    // The lists go straight into the new prefetch's places, which is installed whole once
    // filled (the previous one keeps its objects registered meanwhile).
    let stride = names.count
    let made = PrefetchedRelations(
      version: session.baseNumber, epoch: relationshipEpoch, owners: owners,
      positions: layout.positions, stride: stride)
    let wanted = layout.wantedSlots
    let earlier = reusablePrefetch
    var batches = PrefetchBatches()
    wanted.withUnsafeBufferPointer { wanted in
      var number = 0
      for object in results {
        guard let table = object._table else { continue }
        defer { number &+= 1 }
        if let earlier,
          made.takeLists(
            of: number, from: earlier,
            slots: UnsafeBufferPointer(
              start: wanted.baseAddress! + table.entity.index &* stride, count: stride))
        {
          continue
        }
        batches.add(owner: number, table: table, row: object._row)
      }
    }
    var buffers = PrefetchBuffers()
    for batch in batches.batches {
      let first = batch.table.entity.index &* stride
      for position in 0..<stride where wanted[first &+ position] >= 0 {
        batch.resolve(
          slot: wanted[first &+ position], position: position, into: made, buffers: &buffers,
          in: self)
      }
    }
    made.countOwners(results, listsMayHoldOwners: layout.listsMayHoldOwners(in: session.catalog))
    // Kept only while an owner that could read it lives (no owner: nothing waited for).
    prefetched = made.liveOwners > 0 ? made : nil
  }

  /// The last prefetch, while its lists still hold for this context (see
  /// ``prefetchedRelated(_:slot:)``), so a prefetch of the same owners takes them as they are;
  /// never in a store keeping only fetched objects, where a fetch can bring in related rows
  /// that an earlier resolution did not have.
  private var reusablePrefetch: PrefetchedRelations? {
    guard let prefetched, prefetched.epoch == relationshipEpoch,
      prefetched.version == session.baseNumber, fetchedOnlyStore == nil
    else { return nil }
    return prefetched
  }
}

/// Where a prefetch keeps each relationship: its slot in each entity met and its position
/// among the prefetched relationships.
///
/// The owners of one fetch are one class and its subclasses, which inherit their ancestors'
/// slots, so a relationship has one slot in all of them. A position whose slot would differ
/// between entities, or that repeats another's slot (a key path given twice), is dropped:
/// reading it goes to the tables, so no read ever gets another relationship's list.
struct PrefetchLayout {
  /// Per entity index: the slot of each position, or -1 where the entity has no such
  /// relationship; `nil` for entities not met.
  private(set) var slotsByEntity: [[Int]?] = []
  /// The position of each slot, or -1 (see ``PrefetchedRelations/positions``).
  private(set) var positions: [Int] = []
  /// Whether each position is dropped.
  private(set) var isDropped: [Bool]
  /// The slot each position was first found at, or -1.
  private var slotOfPosition: [Int]
  /// The entities met, in the order met.
  private var met: [ResolvedEntity] = []

  init(count: Int) {
    isDropped = Array(repeating: false, count: count)
    slotOfPosition = Array(repeating: -1, count: count)
  }

  /// The slot of each position in each entity met, at `entity * count + position`: -1 where
  /// the entity has no such relationship, for a dropped position, and for entities not met.
  var wantedSlots: [Int] {
    let count = isDropped.count
    var wanted = [Int](repeating: -1, count: slotsByEntity.count &* count)
    for (entity, slots) in slotsByEntity.enumerated() {
      guard let slots else { continue }
      for position in 0..<count where !isDropped[position] {
        wanted[entity &* count &+ position] = slots[position]
      }
    }
    return wanted
  }

  /// Whether an owner can be one of the related objects: some entity met is the destination
  /// of a relationship it prefetches, or descends from one (a tree of one class prefetching
  /// its children). When none can, ``PrefetchedRelations/countOwners(_:listsMayHoldOwners:)``
  /// reads no list.
  ///
  /// - Complexity: O(entities met² × key paths).
  func listsMayHoldOwners(in catalog: SchemaCatalog) -> Bool {
    for entity in met {
      guard let slots = slotsByEntity[entity.index] else { continue }
      for (position, slot) in slots.enumerated() where slot >= 0 && !isDropped[position] {
        guard let destination = catalog.entity(named: entity.relationships[slot].destination)
        else { return true }
        if met.contains(where: { $0.isKind(of: destination) }) { return true }
      }
    }
    return false
  }

  /// Records the slots of `names` in `entity`, once per entity.
  mutating func meet(_ entity: ResolvedEntity, names: [String]) {
    let index = entity.index
    if index >= slotsByEntity.count {
      slotsByEntity.append(contentsOf: repeatElement(nil, count: index + 1 - slotsByEntity.count))
    }
    guard slotsByEntity[index] == nil else { return }
    met.append(entity)
    let slots = names.map { entity.relationshipSlot(named: $0) ?? -1 }
    slotsByEntity[index] = slots
    for (position, slot) in slots.enumerated() where slot >= 0 && !isDropped[position] {
      if slot >= positions.count {
        positions.append(contentsOf: repeatElement(-1, count: slot + 1 - positions.count))
      }
      if slotOfPosition[position] < 0 { slotOfPosition[position] = slot }
      if positions[slot] < 0 { positions[slot] = position }
      // Another slot for this position, or another position for this slot (the first keeps it).
      if slotOfPosition[position] != slot || positions[slot] != position { drop(position) }
    }
  }

  /// Drops `position`: no slot maps to it any more.
  private mutating func drop(_ position: Int) {
    isDropped[position] = true
    for slot in positions.indices where positions[slot] == position { positions[slot] = -1 }
  }
}
