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
  /// When the source reads a session, a request of a shape the session planned before reuses
  /// that plan with its own values (``QueryPlanCache``), with or without unsaved changes.
  /// - Throws: ``QueryError`` for an unknown class, attribute or relationship, or operands
  ///   whose types do not fit.
  /// - Complexity: O(classes × size of the condition), plus O(log n) per index consulted, plus
  ///   the first build of an index for a committed table version (O(n log n)); from the
  ///   cache, O(tables read × size of the condition) plus the index lookups.
  public func plan(_ request: QueryRequest) throws -> QueryPlan {
    // A cached plan names the indexes it reads, not their views: each use finds the views of
    // the session's current tables, with its unsaved changes laid over them.
    guard let cache = source.planCache else { return try makePlan(request).plan }
    let key = QueryPlanCache.Key(request, onlyCommitted: source.onlyCommittedObjects)
    if let template = cache.template(for: key, source: source),
      let (plan, refreshed) = try bind(request, to: template)
    {
      cache.record(hit: true)
      var stored = refreshed
      if var moved = refreshed {
        // The first fetch of the shape at a new version: a bound plan is made at the second,
        // so a fetch after every save (a server's small transactions) does not pay for one
        // it never reuses.
        moved.bound = nil
        stored = moved
      } else if !source.hasPendingChanges && !(template.bound?.fits(source) ?? false) {
        // A bound plan for the version read now, unless the template holds one that fits.
        var next = template
        next.bound = BoundPlan.make(request, template: next, source: source)
        if next.bound != nil { stored = next }
      }
      if let stored { cache.store(stored, for: key) }
      return plan
    }
    cache.record(hit: false)
    let made = try makePlan(request)
    var template = made.template
    template.bound = BoundPlan.make(request, template: template, source: source)
    cache.store(template, for: key)
    return made.plan
  }

  /// The plan of `request` from `session`'s plan cache, ready to run with `values` in the
  /// slots of its condition (``QueryRequest/slotted``) without planning: `nil` when the cache
  /// has no bound plan of the request's shape that fits what the session reads now (then
  /// plan with ``plan(_:)``, which makes one).
  ///
  /// The request needs no ``QueryRequest/predicate``: its shape is its
  /// ``QueryRequest/shapeIdentity``. The plan has no explanation of its accesses.
  /// - Parameters:
  ///   - includePendingChanges: As for ``QuerySource/init(session:includePendingChanges:indexes:)``.
  ///   - indexes: The indexes of each class's table.
  ///   - declarations: A number the caller changes whenever `indexes` may answer otherwise:
  ///     while it and the session's version stay the same, the bound plan does not check its
  ///     tables and indexes again. `nil` (the default): they are checked on every run.
  /// - Returns: The plan, and the bound plan it came from, which runs later requests of the
  ///   same key without looking it up
  ///   (``boundPlan(_:values:prepared:session:indexes:declarations:)``).
  /// - Complexity: O(tables read + columns of every table), plus the index lookups with the
  ///   values; the first run of a shape's access also compiles its row test.
  package static func boundPlan(
    _ request: QueryRequest, values: [QueryExpression], session: Session,
    includePendingChanges: Bool, indexes: (ResolvedEntity) -> [IndexDefinition],
    declarations: Int? = nil
  ) -> (plan: QueryPlan, prepared: PreparedBoundPlan)? {
    let cache = session.planCache
    guard cache.holdsBoundPlans else { return nil }
    let key = QueryPlanCache.Key(request, onlyCommitted: !includePendingChanges)
    guard let bound = cache.bound(for: key) else { return nil }
    let prepared = PreparedBoundPlan(bound: bound, generation: cache.generation)
    guard
      let plan = boundPlan(
        request, values: values, prepared: prepared, session: session, indexes: indexes,
        declarations: declarations)
    else { return nil }
    return (plan, prepared)
  }

  /// The plan of `request` with `values` from `prepared`, a bound plan that
  /// ``boundPlan(_:values:session:includePendingChanges:indexes:declarations:)`` found for a
  /// request of the same key (class, subclasses, shape identity, sort, window and whether
  /// unsaved objects are left out); `nil` when the cache changed its bound plans since, or the
  /// plan no longer fits what the session reads (the caller then plans as usual).
  package static func boundPlan(
    _ request: QueryRequest, values: [QueryExpression], prepared: PreparedBoundPlan,
    session: Session, indexes: (ResolvedEntity) -> [IndexDefinition], declarations: Int? = nil
  ) -> QueryPlan? {
    let cache = session.planCache
    guard prepared.generation == cache.generation,
      let plan = try? prepared.bound.plan(
        request, values: values, session: session, indexes: indexes,
        declarations: declarations)
    else { return nil }
    cache.record(hit: true, bound: true)
    return plan
  }

  /// A new plan of `request`, and what of it a request of the same shape can reuse.
  private func makePlan(_ request: QueryRequest) throws -> (plan: QueryPlan, template: PlanTemplate)
  {
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
    // One fault slot for every sort key's arithmetic, made by the first that can fault.
    var sortFaults: ArithmeticFaultSlot?
    for key in request.sort {
      let values = try candidates.map { candidate in
        let compiler = QueryCompiler(
          catalog: catalog, tables: source.tables, entity: candidate.entity)
        compiler.faults = sortFaults
        defer { sortFaults = compiler.faults }
        return try compiler.value(
          QuerySpecializer(catalog: catalog, entity: candidate.entity).specialize(key.expression))
      }
      keyComparators.append(
        try RowOrdering.comparator(values, ascending: key.isAscending, key: key))
    }
    let (accesses, order) = chooseAccess(request, candidates)
    let tables = try zip(candidates, accesses).enumerated().map { position, pair in
      try tablePlan(
        position: position, entity: pair.0.entity, predicate: pair.0.predicate,
        access: pair.1.access, note: pair.1.note, covered: pair.1.covered)
    }
    let comparator = request.sort.isEmpty ? nil : RowOrdering.lexicographic(keyComparators)
    let plan = QueryPlan(
      request: request, entity: catalog.entities[request.entity], tables: tables, pruned: pruned,
      order: order, comparator: comparator, firstKeyComparator: keyComparators.first,
      onlyCommitted: source.onlyCommittedObjects, sortFaults: sortFaults)
    let template = PlanTemplate(
      tables: zip(candidates, accesses).map {
        PlanTemplate.TableRecipe(
          entity: $0.0.entity, table: source.tables[$0.0.entity.index], recipe: $0.1.recipe)
      }, pruned: pruned, order: order, comparator: comparator,
      firstKeyComparator: keyComparators.first, entityCount: catalog.entities.count,
      indexes: source.indexes,
      columns: request.sort.isEmpty ? [] : PlanTemplate.columns(of: source.tables),
      sortFaults: sortFaults)
    return (plan, template)
  }

  /// `request` planned as `template` says: the same tables, indexes and order, with the
  /// index lookups and row tests of `request`'s values; `nil` when the values do not fit the
  /// template after all (then the caller plans anew). With the plan comes the template with
  /// the views it found, when it held none for a committed table read without changes.
  private func bind(_ request: QueryRequest, to template: PlanTemplate) throws -> (
    QueryPlan, refreshed: PlanTemplate?
  )? {
    var recipes: [PlanTemplate.Recipe]?
    func indexView(
      _ reference: PlanTemplate.IndexReference, _ entity: ResolvedEntity, _ position: Int,
      _ resolver: IndexResolver
    ) -> (any TableIndex)? {
      let (index, refreshed) = view(reference, entity, resolver)
      if let refreshed {
        if recipes == nil { recipes = template.tables.map(\.recipe) }
        switch recipes![position] {
        case .filter(let choices):
          recipes![position] = .filter(
            choices.map {
              $0.index.definition == refreshed.definition
                ? PlanTemplate.IndexChoice(index: refreshed, isEqual: $0.isEqual) : $0
            })
        case .walk(_, let isRanged): recipes![position] = .walk(refreshed, isRanged: isRanged)
        }
      }
      return index
    }
    let catalog = source.catalog
    let resolver = IndexResolver(
      tables: source.tables, committedTables: source.committedTables,
      hasPendingChanges: source.hasPendingChanges, memo: source.indexMemo)
    var tables: [TablePlan] = []
    // A predicate without type tests, casts or foldable constants is every table's own: its
    // indexable conditions are found once, not per table.
    let isShared = request.predicate.map { !$0.isSpecializable } ?? true
    var shared: [IndexableCondition]?
    func conditions(_ predicate: QueryExpression) -> [IndexableCondition] {
      guard isShared else { return IndexableCondition.find(in: predicate) }
      if let shared { return shared }
      let found = IndexableCondition.find(in: predicate)
      shared = found
      return found
    }
    for (position, recipe) in template.tables.enumerated() {
      let entity = recipe.entity
      let specialized =
        isShared
        ? request.predicate
        : request.predicate.map {
          QuerySpecializer(catalog: catalog, entity: entity).specialize($0)
        }
      if specialized == .alwaysFalse { return nil }
      let predicate = specialized == .alwaysTrue ? nil : specialized
      var access = TableAccess.scan
      var covered = ConjunctSet()
      var note: () -> String = { "scan" }
      switch recipe.recipe {
      case .filter(let choices):
        guard let predicate, !choices.isEmpty else { break }
        let found = conditions(predicate)
        var options: [IndexOption] = []
        for choice in choices {
          guard
            let condition = found.first(where: {
              $0.attribute == choice.index.definition.attribute && $0.isEqual == choice.isEqual
            }),
            let index = indexView(choice.index, entity, position, resolver),
            let option = IndexOption(index: index, condition: condition)
          else { return nil }
          options.append(option)
        }
        guard let best = options.min(by: { $0.estimate < $1.estimate }) else { break }
        let chosen = Self.filterAccess(
          best, live: recipe.table.liveCount, stop: request.stopAfter, recipe: recipe.recipe)
        (access, note, covered) = (chosen.access, chosen.note, chosen.covered)
      case .walk(let reference, let isRanged):
        guard let index = indexView(reference, entity, position, resolver) else { return nil }
        let attribute = reference.definition.attribute
        var range = IndexValueRange()
        if isRanged {
          guard let predicate,
            let condition = conditions(predicate).first(where: {
              $0.attribute == attribute && !$0.isEqual
            }), case .range(let found) = condition.kind
          else { return nil }
          range = found
          covered = condition.covered
        }
        access = .ordered(index, range)
        let ascending = request.sort.first?.isAscending ?? true
        note = {
          "\(index.definition) walk \(range) \(ascending ? "ascending" : "descending")"
        }
      }
      tables.append(
        try tablePlan(
          position: position, entity: entity, predicate: predicate, access: access, note: note,
          covered: covered))
    }
    let plan = QueryPlan(
      request: request, entity: catalog.entities[request.entity], tables: tables,
      pruned: template.pruned, order: template.order, comparator: template.comparator,
      firstKeyComparator: template.firstKeyComparator, onlyCommitted: source.onlyCommittedObjects,
      sortFaults: template.sortFaults, isFromCache: true)
    return (plan, recipes.map(template.with(recipes:)))
  }

  /// The view of a cached plan's index over the tables read now: the one the plan found, when
  /// it had no unsaved changes over the same committed table and has none now. With it comes
  /// a reference to keep instead, when the plan held no view and the session reads the
  /// committed table without changes.
  private func view(
    _ reference: PlanTemplate.IndexReference, _ entity: ResolvedEntity, _ resolver: IndexResolver
  ) -> (view: (any TableIndex)?, refreshed: PlanTemplate.IndexReference?) {
    if !source.hasPendingChanges, let committed = reference.cleanCommitted,
      committed === source.committedTables[entity.index], let view = reference.view
    {
      return (view, nil)
    }
    let view = resolver.view(reference.definition, entity: entity)
    guard reference.view == nil, !source.hasPendingChanges, let view else { return (view, nil) }
    return (view, self.reference(view, entity))
  }

  /// A reference to `index`, a view of the table of `entity` found now, for a cached plan.
  private func reference(_ index: any TableIndex, _ entity: ResolvedEntity)
    -> PlanTemplate.IndexReference
  {
    PlanTemplate.IndexReference(
      definition: index.definition, view: index,
      cleanCommitted: source.hasPendingChanges ? nil : source.committedTables[entity.index])
  }

  /// The plan of one table: `access`, then the test of the conjuncts it does not answer.
  private func tablePlan(
    position: Int, entity: ResolvedEntity, predicate: QueryExpression?, access: TableAccess,
    note: @escaping () -> String, covered: ConjunctSet
  ) throws -> TablePlan {
    // The conjuncts the access does not answer (no list and no compiler when it answers all,
    // as an index walk over a range does).
    var kept: [QueryExpression] = []
    if let predicate {
      for (position, conjunct) in IndexableCondition.conjuncts(of: predicate).enumerated()
      where !covered.contains(position) {
        kept.append(conjunct)
      }
    }
    let predicate = kept.isEmpty ? nil : kept.count == 1 ? kept[0] : .and(kept)
    let condition = try Self.rowTest(
      predicate, entity: entity, catalog: source.catalog, tables: source.tables,
      committed: source.onlyCommittedObjects ? source.committedTables[entity.index] : nil)
    return TablePlan(
      position: position, entity: entity, table: source.tables[entity.index],
      predicate: condition == nil ? nil : predicate, condition: condition,
      access: condition?.constant == false ? .rows([]) : access, accessNote: note)
  }

  /// The compiled test of `predicate` on rows of `entity`'s table in `tables`; with
  /// `committed`, also that the row holds the same object in that committed version (a fetch
  /// that leaves out unsaved inserts). `nil` when every row matches.
  static func rowTest(
    _ predicate: QueryExpression?, entity: ResolvedEntity, catalog: SchemaCatalog,
    tables: [Table], committed: Table?
  ) throws -> CompiledCondition? {
    let compiler = QueryCompiler(catalog: catalog, tables: tables, entity: entity)
    var condition = try predicate.map(compiler.condition)
    if condition?.constant == true { condition = nil }
    let faults = compiler.faults
    let table = tables[entity.index]
    if let committed, table !== committed {
      let filter = CompiledCondition(
        test: { row in row < committed.rowCount && committed.stamps[row] == table.stamps[row] },
        cost: 2)
      // A row the fetch leaves out is not computed on when the condition can fault.
      condition =
        condition.map { .all([filter, $0], keepingOrder: faults != nil) } ?? filter
    }
    condition?.faults = faults
    return condition
  }

  /// Picks each table's access path and the order strategy.
  private func chooseAccess(_ request: QueryRequest, _ candidates: [Candidate])
    -> ([ChosenAccess], OrderStrategy)
  {
    let resolver = IndexResolver(
      tables: source.tables, committedTables: source.committedTables,
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
      ChosenAccess(access: .scan, note: { "scan" }, covered: ConjunctSet(), recipe: .filter([]))
    }

    if let first = request.sort.first,
      case .attribute(.variable(0), let attribute) = first.expression,
      let walks = mergeWalks(attribute, candidates, options, resolver)
    {
      let walked = walks.reduce(0) { $0 + $1.estimate }
      // The rows the walks examine before `stop` match, if matches are spread evenly; in
      // floating point, since `stop` may be as large as `Int.max`.
      let examined =
        stop.map {
          min(Double(walked), Double($0) * Double(max(walked, 1)) / Double(max(filtered, 1)))
        }
        ?? Double(walked)
      if examined <= 2 * Double(filtered) + 64 {
        let ascending = first.isAscending
        for (position, walk) in walks.enumerated() {
          chosen[position] = ChosenAccess(
            access: .ordered(walk.index, walk.range),
            note: {
              "\(walk.index.definition) walk \(walk.range) \(ascending ? "ascending" : "descending")"
                + " (~\(walk.estimate) rows)"
            }, covered: walk.covered,
            recipe: .walk(
              reference(walk.index, candidates[position].entity), isRanged: walk.isRanged))
        }
        return (chosen, .indexMerge(ascending: first.isAscending))
      }
    }
    for position in candidates.indices {
      guard let filter = filters[position] else { continue }
      let live = source.tables[candidates[position].entity.index].liveCount
      let recipe = PlanTemplate.Recipe.filter(
        options[position].map {
          PlanTemplate.IndexChoice(
            index: reference($0.index, candidates[position].entity),
            isEqual: $0.condition.isEqual)
        })
      chosen[position] = Self.filterAccess(filter, live: live, stop: stop, recipe: recipe)
    }
    if request.sort.isEmpty { return (chosen, .natural) }
    return (chosen, stop.map { .topK($0) } ?? .fullSort)
  }

  /// Whether reading the `estimate` rows an index yields beats scanning a table of `live`
  /// rows: a quarter of the table or less, or few enough to fill a small window.
  static func prefersIndex(estimate: Int, live: Int, stop: Int?) -> Bool {
    estimate <= live / 4 || (stop.map { estimate / 4 <= $0 } ?? false)
  }

  /// The access through `option` when it beats a scan of the table's `live` rows, else a
  /// scan whose note says what the index would have yielded.
  private static func filterAccess(
    _ option: IndexOption, live: Int, stop: Int?, recipe: PlanTemplate.Recipe
  ) -> ChosenAccess {
    guard prefersIndex(estimate: option.estimate, live: live, stop: stop) else {
      return ChosenAccess(
        access: .scan,
        note: { "scan (\(option.note()) would yield ~\(option.estimate) of \(live) rows)" },
        covered: ConjunctSet(), recipe: recipe)
    }
    return ChosenAccess(
      access: .rows(option.rows()), note: { "\(option.note()) (~\(option.estimate) rows)" },
      covered: option.covered, recipe: recipe)
  }

  /// Every index of the table that can answer one of its conjuncts, with the rows it yields.
  private func indexOptions(
    _ candidate: Candidate, _ conditions: [IndexableCondition], _ resolver: IndexResolver
  ) -> [IndexOption] {
    var options: [IndexOption] = []
    for condition in conditions {
      for definition in source.indexes[candidate.entity.index]
      where definition.attribute == condition.attribute {
        guard let index = resolver.view(definition, entity: candidate.entity),
          let option = IndexOption(index: index, condition: condition)
        else { continue }
        options.append(option)
      }
    }
    return options
  }

  /// Per table, the ordered index on `attribute`, the range to walk and the conjuncts it
  /// answers; `nil` unless every table has one.
  private func mergeWalks(
    _ attribute: String, _ candidates: [Candidate], _ options: [[IndexOption]],
    _ resolver: IndexResolver
  ) -> [MergeWalk]? {
    var walks: [MergeWalk] = []
    for (candidate, options) in zip(candidates, options) {
      let ranged = options.first {
        if case .range = $0.condition.kind {
          $0.index.definition.kind == .ordered && $0.condition.attribute == attribute
        } else {
          false
        }
      }
      if let ranged, case .range(let range) = ranged.condition.kind {
        walks.append(
          MergeWalk(
            index: ranged.index, range: range, estimate: ranged.estimate,
            covered: ranged.condition.covered, isRanged: true))
        continue
      }
      guard
        let definition = source.indexes[candidate.entity.index].first(where: {
          $0.kind == .ordered && $0.attribute == attribute
        }), let index = resolver.view(definition, entity: candidate.entity)
      else { return nil }
      walks.append(
        MergeWalk(
          index: index, range: IndexValueRange(), estimate: index.count, covered: ConjunctSet(),
          isRanged: false))
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

/// An ordered index walked for a sort, with the range it is walked in.
private struct MergeWalk {
  let index: any TableIndex
  let range: IndexValueRange
  let estimate: Int
  let covered: ConjunctSet
  /// Whether the range comes from the request's conjuncts (else the whole index).
  let isRanged: Bool
}

/// The access chosen for a table, and the conjuncts it answers exactly.
private struct ChosenAccess {
  var access: TableAccess
  var note: () -> String
  var covered: ConjunctSet
  /// The access without the request's values, for the plan cache.
  var recipe: PlanTemplate.Recipe
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

  /// What `index` yields for `condition`; `nil` when the values do not convert to its keys.
  init?(index: any TableIndex, condition: IndexableCondition) {
    let definition = index.definition
    switch condition.kind {
    case .equal(let values):
      guard let estimate = index.count(equalTo: values) else { return nil }
      self.estimate = estimate
      note = {
        "\(definition) == \(values.count == 1 ? values[0].description : values.description)"
      }
      rows = { index.rows(equalTo: values) ?? [] }
    case .range(let range):
      guard let estimate = index.count(in: range) else { return nil }
      self.estimate = estimate
      note = { "\(definition) range \(range)" }
      rows = { index.rows(in: range) ?? [] }
    }
    self.index = index
    self.condition = condition
  }
}
