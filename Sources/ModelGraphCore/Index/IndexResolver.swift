/// Finds the index views a query reads: each table's index for its committed version, with
/// the pending changes of the table read laid over it.
struct IndexResolver {
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
  /// - Complexity: O(rows the reader wrote) to lay its changes over the committed version's
  ///   index (O(chunks written) when it does not know them), plus O(n log n) the first time the
  ///   index is asked for (a save carries it to the version it publishes).
  func view(_ definition: IndexDefinition, entity: ResolvedEntity) -> (any TableIndex)? {
    guard let slot = entity.attributeSlot(named: definition.attribute) else { return nil }
    return view(definition, entity: entity, slot: slot)
  }

  /// ``view(_:entity:)`` for the attribute in `slot` of `entity`, which `definition` names.
  func view(_ definition: IndexDefinition, entity: ResolvedEntity, slot: Int) -> (any TableIndex)? {
    let maker = ViewMaker(
      memo: memo, committed: committedTables[entity.index],
      current: hasPendingChanges ? tables[entity.index] : committedTables[entity.index],
      definition: definition, slot: slot,
      writtenRows: writtenRows)
    return (try? entity.attributes[slot].visitIndexKey(maker)) ?? nil
  }
}

private struct ViewMaker: IndexKeyVisitor {
  let memo: IndexMemo?
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
      let built = find {
        OrderedBuilt<Key>(definition, slot: slot, table: committed)
      }
      guard current !== committed else { return built.view }
      let delta = pendingDelta(Key.self)
      if delta.isEmpty { return built.view }
      return OrderedIndexView.make(
        definition, base: built.base,
        delta: built.delta.followed(by: delta))
    case .hash:
      let built = find {
        HashBuilt<Key>(definition, slot: slot, table: committed)
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

  /// The index built for the committed table: from the session's memo, else from the table's
  /// shelf, which keeps the one `make` builds when no reader has built it yet (and no save
  /// carried it there). An index the session's read built is carried to the versions of the
  /// table committed after this one meanwhile (``IndexMemo/didBuild(for:)``).
  private func find<Built: BuiltIndex>(make: () -> Built) -> Built {
    guard let memo else { return committed.makeIndexShelf().index(definition, make: make) }
    let committed = committed
    return memo.built(for: committed, definition: definition) {
      committed.makeIndexShelf().index(definition, make: make) { _ in
        memo.didBuild(for: committed)
      }
    }
  }
}
