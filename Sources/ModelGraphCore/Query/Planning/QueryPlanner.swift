/// Plans queries over a ``QuerySource``: which tables to read, through which index, and how to
/// order the results.
///
/// For each class the query visits, the condition is specialized (type tests and casts of the
/// tested object become constants), so tables whose class cannot match are pruned. Each
/// remaining table is read through the index that yields the fewest candidate rows for a
/// conjunct (`==`, `IN`, a range or an ASCII prefix on the tested object's attribute), or
/// scanned column by column; the conjuncts an index answers exactly are not tested again. A
/// sort whose first key has an ordered index on every table is answered by merging the
/// tables' indexes and stopping once `offset + limit` matches are found; other sorts keep the
/// best `offset + limit` matches in a heap, or sort all matches when there is no limit.
public struct QueryPlanner {
  /// What the planned queries read.
  public let source: QuerySource

  /// A planner for `source`.
  public init(source: QuerySource) { self.source = source }

  /// The plan of `request`.
  ///
  /// - Throws: ``QueryError`` for an unknown class, attribute or relationship, or operands
  ///   whose types do not fit.
  /// - Complexity: O(classes × size of the condition), plus O(log n) per index consulted, plus
  ///   the first build of an index for a committed table version (O(n log n)).
  public func plan(_ request: QueryRequest) throws -> QueryPlan {
    let catalog = source.catalog
    guard catalog.entities.indices.contains(request.entity) else {
      throw QueryError(.unknownEntity, "no class with index \(request.entity)")
    }
    let entities =
      request.includesSubclasses ? catalog.subtree(of: request.entity) : [request.entity]
    var candidates: [Candidate] = []
    var pruned: [(entity: ResolvedEntity, reason: String)] = []
    for index in entities {
      let entity = catalog.entities[index]
      let specialized = request.predicate.map {
        QuerySpecializer(catalog: catalog, entity: entity).specialize($0)
      }
      if specialized == .alwaysFalse {
        pruned.append((entity, "the condition is false for every \(entity.name)"))
        continue
      }
      candidates.append(
        Candidate(entity: entity, predicate: specialized == .alwaysTrue ? nil : specialized))
    }
    var keyComparators: [(RowReference, RowReference) -> Int] = []
    for key in request.sort {
      let values = try candidates.map { candidate in
        try QueryCompiler(catalog: catalog, tables: source.tables, entity: candidate.entity).value(
          QuerySpecializer(catalog: catalog, entity: candidate.entity).specialize(key.expression))
      }
      keyComparators.append(
        try RowOrdering.comparator(values, ascending: key.isAscending, key: key))
    }
    let (accesses, order) = chooseAccess(request, candidates)
    var tables: [TablePlan] = []
    for (candidate, access) in zip(candidates, accesses) {
      let entity = candidate.entity
      let remaining = candidate.predicate.map { predicate in
        IndexableCondition.conjuncts(of: predicate).enumerated()
          .filter { !access.covered.contains($0.offset) }.map(\.element)
      }
      let predicate = remaining.flatMap { $0.isEmpty ? nil : $0.count == 1 ? $0[0] : .and($0) }
      let compiler = QueryCompiler(catalog: catalog, tables: source.tables, entity: entity)
      var condition = try predicate.map(compiler.condition)
      if condition?.constant == true { condition = nil }
      if source.onlyCommittedObjects, let committed = committedFilter(entity) {
        condition = condition.map { .all([$0, committed]) } ?? committed
      }
      tables.append(
        TablePlan(
          position: tables.count, entity: entity, table: source.tables[entity.index],
          predicate: condition == nil ? nil : predicate, condition: condition,
          access: condition?.constant == false ? .rows([]) : access.access,
          accessNote: access.note))
    }
    return QueryPlan(
      request: request, entity: catalog.entities[request.entity], tables: tables, pruned: pruned,
      order: order,
      comparator: request.sort.isEmpty ? nil : RowOrdering.lexicographic(keyComparators),
      firstKeyComparator: keyComparators.first, onlyCommitted: source.onlyCommittedObjects)
  }

  /// The rows that hold the same object in the table read and its committed version.
  private func committedFilter(_ entity: ResolvedEntity) -> CompiledCondition? {
    let table = source.tables[entity.index]
    let committed = source.committedTables[entity.index]
    guard table !== committed else { return nil }
    return CompiledCondition(
      test: { row in row < committed.rowCount && committed.stamps[row] == table.stamps[row] },
      cost: 2)
  }

  /// Picks each table's access path and the order strategy.
  private func chooseAccess(_ request: QueryRequest, _ candidates: [Candidate])
    -> ([ChosenAccess], OrderStrategy)
  {
    let resolver = IndexResolver(
      store: source.store, tables: source.tables, committedTables: source.committedTables,
      hasPendingChanges: source.hasPendingChanges, memo: source.indexMemo)
    var conditions: (predicate: QueryExpression, found: [IndexableCondition])?
    let options = candidates.map { candidate -> [IndexOption] in
      guard let predicate = candidate.predicate else { return [] }
      // Tables of a hierarchy usually share the predicate (nothing to specialize): analyze once.
      if conditions == nil || !(conditions!.predicate.isShared(with: predicate)) {
        conditions = (predicate, IndexableCondition.find(in: predicate))
      }
      return indexOptions(candidate, conditions!.found, resolver)
    }
    let filters = options.map { $0.min { $0.estimate < $1.estimate } }
    let stop = request.stopAfter
    let filtered = zip(candidates, filters).reduce(0) {
      $0 + ($1.1?.estimate ?? source.tables[$1.0.entity.index].liveCount)
    }
    var chosen = candidates.map { _ in
      ChosenAccess(access: .scan, note: { "scan" }, covered: ConjunctSet())
    }

    if let first = request.sort.first,
      case .attribute(.variable(0), let attribute) = first.expression,
      let walks = mergeWalks(attribute, candidates, options, resolver)
    {
      let walked = walks.reduce(0) { $0 + $1.estimate }
      let examined = stop.map { min(walked, $0 * max(walked, 1) / max(filtered, 1)) } ?? walked
      if examined <= 2 * filtered + 64 {
        let ascending = first.isAscending
        for (position, walk) in walks.enumerated() {
          chosen[position] = ChosenAccess(
            access: .ordered(walk.index, walk.range),
            note: {
              "\(walk.index.definition) walk \(walk.range) \(ascending ? "ascending" : "descending")"
                + " (~\(walk.estimate) rows)"
            }, covered: walk.covered)
        }
        return (chosen, .indexMerge(ascending: first.isAscending))
      }
    }
    for position in candidates.indices {
      guard let filter = filters[position] else { continue }
      let live = source.tables[candidates[position].entity.index].liveCount
      guard filter.estimate <= live / 4 || (stop != nil && filter.estimate <= 4 * (stop ?? 0))
      else {
        chosen[position].note = {
          "scan (\(filter.note()) would yield ~\(filter.estimate) of \(live) rows)"
        }
        continue
      }
      chosen[position] = ChosenAccess(
        access: .rows(filter.rows()), note: { "\(filter.note()) (~\(filter.estimate) rows)" },
        covered: filter.covered)
    }
    if request.sort.isEmpty { return (chosen, .natural) }
    return (chosen, stop.map { .topK($0) } ?? .fullSort)
  }

  /// Every index of the table that can answer one of its conjuncts, with the rows it yields.
  private func indexOptions(
    _ candidate: Candidate, _ conditions: [IndexableCondition], _ resolver: IndexResolver
  ) -> [IndexOption] {
    var options: [IndexOption] = []
    for condition in conditions {
      for definition in source.indexes[candidate.entity.index]
      where definition.attribute == condition.attribute {
        guard let index = resolver.view(definition, entity: candidate.entity) else { continue }
        switch condition.kind {
        case .equal(let values):
          guard let estimate = index.count(equalTo: values) else { continue }
          options.append(
            IndexOption(
              index: index, condition: condition, estimate: estimate,
              note: {
                "\(definition) == \(values.count == 1 ? values[0].description : values.description)"
              },
              rows: { index.rows(equalTo: values) ?? [] }))
        case .range(let range):
          guard let estimate = index.count(in: range) else { continue }
          options.append(
            IndexOption(
              index: index, condition: condition, estimate: estimate,
              note: { "\(definition) range \(range)" }, rows: { index.rows(in: range) ?? [] }))
        }
      }
    }
    return options
  }

  /// Per table, the ordered index on `attribute`, the range to walk and the conjuncts it
  /// answers; `nil` unless every table has one.
  private func mergeWalks(
    _ attribute: String, _ candidates: [Candidate], _ options: [[IndexOption]],
    _ resolver: IndexResolver
  ) -> [(index: any TableIndex, range: IndexValueRange, estimate: Int, covered: ConjunctSet)]? {
    var walks:
      [(index: any TableIndex, range: IndexValueRange, estimate: Int, covered: ConjunctSet)] =
        []
    for (candidate, options) in zip(candidates, options) {
      let ranged = options.first {
        if case .range = $0.condition.kind {
          $0.index.definition.kind == .ordered && $0.condition.attribute == attribute
        } else {
          false
        }
      }
      if let ranged, case .range(let range) = ranged.condition.kind {
        walks.append((ranged.index, range, ranged.estimate, ranged.condition.covered))
        continue
      }
      guard
        let definition = source.indexes[candidate.entity.index].first(where: {
          $0.kind == .ordered && $0.attribute == attribute
        }), let index = resolver.view(definition, entity: candidate.entity)
      else { return nil }
      walks.append((index, IndexValueRange(), index.count, ConjunctSet()))
    }
    return walks
  }
}

/// A table a query may read, with its condition specialized for its class.
private struct Candidate {
  let entity: ResolvedEntity
  /// `nil` when every row matches.
  let predicate: QueryExpression?
}

/// The access chosen for a table, and the conjuncts it answers exactly.
private struct ChosenAccess {
  var access: TableAccess
  var note: () -> String
  var covered: ConjunctSet
}

/// An index of one table that can answer some of its conjuncts.
private struct IndexOption {
  /// The index.
  let index: any TableIndex
  /// The conjuncts it answers.
  let condition: IndexableCondition
  /// The rows it yields (exact without pending changes).
  let estimate: Int
  /// What it reads, for `explain`.
  let note: () -> String
  /// The rows, ascending.
  let rows: () -> [Int32]
  /// The conjuncts it answers exactly.
  var covered: ConjunctSet { condition.covered }
}
