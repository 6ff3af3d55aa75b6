/// Finds the index views a query reads: each table's index for its committed version, with
/// the pending changes of the table read laid over it.
struct IndexResolver {
  let store: Store
  /// The table each query reads, by entity.
  let tables: [Table]
  /// The frozen committed version of each table, by entity.
  let committedTables: [Table]
  /// Whether the tables read may differ from their committed versions.
  let hasPendingChanges: Bool
  /// The reading session's memo of indexes already found, if any.
  var memo: IndexMemo? = nil
  /// The rows the current table of an entity may differ in from its committed version
  /// (ascending, without repeats), when the reader knows them; `nil` compares the chunks.
  var writtenRows: ((Int) -> [Int32]?)? = nil

  /// The view of `definition`'s index for the table of `entity`; `nil` when the attribute
  /// cannot be indexed.
  ///
  /// - Complexity: O(chunks) to compare the versions, plus O(n log n) the first time the index
  ///   is built for the committed version (O(n) when derived from an earlier version's).
  func view(_ definition: IndexDefinition, entity: ResolvedEntity) -> (any TableIndex)? {
    guard let slot = entity.attributeSlot(named: definition.attribute) else { return nil }
    return view(definition, entity: entity, slot: slot)
  }

  /// ``view(_:entity:)`` for the attribute in `slot` of `entity`, which `definition` names.
  func view(_ definition: IndexDefinition, entity: ResolvedEntity, slot: Int) -> (any TableIndex)? {
    let maker = ViewMaker(
      registry: .shared, memo: memo, store: store, committed: committedTables[entity.index],
      current: hasPendingChanges ? tables[entity.index] : committedTables[entity.index],
      definition: definition, slot: slot,
      writtenRows: writtenRows)
    return (try? entity.attributes[slot].visitIndexKey(maker)) ?? nil
  }
}

/// A hash index for a frozen table version: a base index built for an earlier version, with
/// the rows the versions disagree on laid over it.
///
/// Carrying a hash index to a newer version copies the partitions the changes touch and the
/// arrays that hold them; so a new version keeps its predecessor's base and adds the save's
/// changes to the overlay, and only makes a new base once the overlay outgrows
/// ``HashOverlay/foldBound`` rows. A save of one object then costs O(1) amortized here, at any
/// size of the table.
private final class HashBuilt<Key: IndexKey>: @unchecked Sendable {
  // @unchecked Sendable: immutable; the view's closures only read the immutable index.
  let base: HashIndex<Key>
  /// The rows of this version whose entries differ from `base`.
  let overlay: HashOverlay<Key>
  let view: any TableIndex

  init(_ definition: IndexDefinition, base: HashIndex<Key>, overlay: HashOverlay<Key>) {
    self.base = base
    self.overlay = overlay
    view = HashIndexView.make(definition, base: base, overlay: overlay)
  }

  /// The index of the next version, whose entries differ from this one's by `step`.
  func carried(by step: IndexDelta<Key>, _ definition: IndexDefinition) -> HashBuilt {
    if step.isEmpty { return self }
    let total = overlay.applying(step)
    guard total.count > HashOverlay<Key>.foldBound else {
      return HashBuilt(definition, base: base, overlay: total)
    }
    return HashBuilt(definition, base: base.applying(total.delta), overlay: HashOverlay())
  }
}

/// An ordered index for a frozen table version: a base index built for an earlier version,
/// with the entries the versions disagree on laid over it.
///
/// Carrying an ordered index to a newer version rewrites its sorted arrays, O(n); so a new
/// version keeps its predecessor's base and adds the save's changes to the delta, and only
/// rewrites the base once the delta outgrows √n entries (at least 64). A query after every
/// save then costs O(√n log n) per version for the view, not O(n).
private final class OrderedBuilt<Key: IndexKey>: @unchecked Sendable {
  // @unchecked Sendable: immutable; the view's closures only read the immutable index.
  let base: OrderedIndex<Key>
  /// The entries of this version that differ from `base`.
  let delta: IndexDelta<Key>
  let view: any TableIndex

  init(
    _ definition: IndexDefinition, base: OrderedIndex<Key>, delta: IndexDelta<Key>
  ) {
    self.base = base
    self.delta = delta
    view = OrderedIndexView.make(definition, base: base, delta: delta)
  }

  /// The index of the next version, whose entries differ from this one's by `step`.
  func carried(by step: IndexDelta<Key>, _ definition: IndexDefinition) -> OrderedBuilt {
    if step.isEmpty { return self }
    let total = delta.followed(by: step)
    let bound = max(64, Int(Double(base.count).squareRoot()))
    guard total.removed.count + total.added.count > bound else {
      return OrderedBuilt(definition, base: base, delta: total)
    }
    return OrderedBuilt(definition, base: base.applying(total), delta: IndexDelta())
  }
}

private struct ViewMaker: IndexKeyVisitor {
  let registry: IndexRegistry
  let memo: IndexMemo?
  let store: Store
  let committed: Table
  let current: Table
  let definition: IndexDefinition
  let slot: Int
  let writtenRows: ((Int) -> [Int32]?)?

  func visit<Key: IndexKey>(_: Key.Type) -> (any TableIndex)? {
    let slot = slot
    let committed = committed
    let definition = definition
    switch definition.kind {
    case .ordered:
      let built = find(OrderedBuilt<Key>.self) { source in
        guard let source else {
          return OrderedBuilt(
            definition,
            base: OrderedIndex<Key>.build(
              column: committed.column(slot, as: Key.self), stamps: committed.stamps),
            delta: IndexDelta())
        }
        return source.index.carried(
          by: IndexDelta(from: source.table, to: committed, slot: slot), definition)
      }
      guard current !== committed else { return built.view }
      let delta = pendingDelta(Key.self)
      if delta.isEmpty { return built.view }
      return OrderedIndexView.make(
        definition, base: built.base,
        delta: built.delta.followed(by: delta))
    case .hash:
      let built = find(HashBuilt<Key>.self) { source in
        guard let source else {
          return HashBuilt(
            definition,
            base: HashIndex<Key>.build(
              column: committed.column(slot, as: Key.self), stamps: committed.stamps),
            overlay: HashOverlay())
        }
        return source.index.carried(
          by: IndexDelta(from: source.table, to: committed, slot: slot), definition)
      }
      guard current !== committed else { return built.view }
      let delta = pendingDelta(Key.self)
      if delta.isEmpty { return built.view }
      return HashIndexView.make(
        definition, base: built.base, overlay: built.overlay.applying(delta))
    }
  }

  /// The entries the current table differs in from the committed one: from the rows the
  /// reader says it wrote, when it knows them, else from the chunks the tables do not share.
  private func pendingDelta<Key: IndexKey>(_: Key.Type) -> IndexDelta<Key> {
    guard let rows = writtenRows?(committed.entity.index) else {
      return IndexDelta(from: committed, to: current, slot: slot)
    }
    return IndexDelta(from: committed, to: current, slot: slot, rows: rows)
  }

  /// The index built for the committed table: from the session's memo, else from the
  /// registry, which builds it with `make` when no reader has yet.
  private func find<Built: AnyObject>(
    _: Built.Type, make: @escaping ((table: Table, index: Built)?) -> Built
  ) -> Built {
    let lookUp = {
      registry.index(store: store, table: committed, definition: definition, make: make)
    }
    guard let memo else { return lookUp() }
    return memo.built(for: committed, definition: definition, find: lookUp)
  }
}
