/// A cached plan ready to run with a request's values, without planning: the index views of
/// the store version it was made on, each table's access with its index bounds read from the
/// request's values, and each table's row test compiled once.
///
/// It serves a session that reads exactly the committed tables, working tables, classes,
/// index declarations and columns it was made for, and has no unsaved changes; anything else
/// goes back to the planner (which binds the template anew and makes a new bound plan once the
/// session reads a committed version without changes again). A row test that reads one of
/// the request's values is compiled per run from that part of the condition alone. Not
/// `Sendable`: it belongs to its session's plan cache.
final class BoundPlan {
  /// How a table is read.
  enum Access {
    /// An ordered index walked in key order within a range (the whole index when the range
    /// has no bounds), answering the conjuncts in `covered`.
    case walk(any TableIndex, BoundRange, covered: ConjunctSet)
    /// Through the option that yields the fewest rows for the request's values, or a scan
    /// when there is none or the best would yield too many.
    case filter([Option])
  }

  /// An index that can answer some conjuncts of a table's condition.
  struct Option {
    let index: any TableIndex
    let condition: BoundCondition
    let covered: ConjunctSet

    /// Whether the rows of the condition cost one lookup, no more than their number does: an
    /// equality (or a list) on a hash index, which keeps each key's rows as a list.
    var answersInOneLookup: Bool {
      guard index.definition.kind == .hash else { return false }
      switch condition {
      case .equal, .list: return true
      case .range: return false
      }
    }
  }

  /// A table's row test, for one set of covered conjuncts (a class, so reading it per run
  /// retains one reference, not each closure of the condition).
  final class Test {
    /// Compiled once; `nil` when every row the access yields matches, or when ``perRun``.
    let condition: CompiledCondition?
    /// The part of the condition tested, when ``condition`` is not `nil`.
    let predicate: QueryExpression?
    /// The conjuncts left, when they read the request's values: compiled per run.
    let perRun: QueryExpression?

    init(_ condition: CompiledCondition?, predicate: QueryExpression?, perRun: QueryExpression?) {
      self.condition = condition
      self.predicate = predicate
      self.perRun = perRun
    }
  }

  /// An ordered index walk (a class, so a run reads it without copying it).
  final class Walk {
    let index: any TableIndex
    private let bounds: BoundRange

    init(index: any TableIndex, range: BoundRange) {
      self.index = index
      self.bounds = range
    }

    /// The range with the request's `values` (see ``BoundRange/range(_:)``).
    func range(_ values: [QueryExpression]) -> IndexValueRange? { bounds.range(values) }
  }

  /// What a table's access reads, without the index views: the declarations of its indexes.
  enum Recipe {
    /// An ordered index walked in key order within a range, answering `covered`.
    case walk(IndexDefinition, BoundRange, covered: ConjunctSet)
    /// The indexes that can answer some conjuncts, each with its condition.
    case filter([(definition: IndexDefinition, condition: BoundCondition, covered: ConjunctSet)])
  }

  /// A table read (a class, so a run reads it without retaining each of its fields).
  ///
  /// Its committed table, working table and index views are those of the store version the
  /// plan last ran on; a move to another version releases those of the tables it replaced
  /// (``release()``), and the next run finds the views of the new version
  /// (``rebase(onto:resolving:)``), so a plan outlives the saves between its runs without
  /// keeping an old version alive.
  final class BoundTable {
    let entity: ResolvedEntity
    /// The working table read.
    @exclusivity(unchecked) var table: Table?
    /// The committed table the views were found for; `nil` once released.
    @exclusivity(unchecked) var committed: Table?
    let indexes: [IndexDefinition]
    let recipe: Recipe
    /// The access with the views of ``committed`` (an empty filter once released).
    @exclusivity(unchecked) private(set) var access: Access
    /// The walk, when ``access`` is one.
    @exclusivity(unchecked) private(set) var walk: Walk?

    init(
      entity: ResolvedEntity, table: Table, committed: Table, indexes: [IndexDefinition],
      access: Access
    ) {
      self.entity = entity
      self.table = table
      self.committed = committed
      self.indexes = indexes
      self.access = access
      switch access {
      case .walk(let index, let range, let covered):
        recipe = .walk(index.definition, range, covered: covered)
        walk = Walk(index: index, range: range)
      case .filter(let options):
        recipe = .filter(options.map { ($0.index.definition, $0.condition, $0.covered) })
        walk = nil
      }
    }

    /// The number of accesses the table's tests are kept for: a walk, or a scan and each
    /// option.
    var accessCount: Int {
      switch recipe {
      case .walk: 1
      case .filter(let options): options.count + 1
      }
    }

    /// Forgets the committed table and index views of the version the plan ran on; keeps the
    /// working table, which the session holds for its whole life.
    func release() {
      committed = nil
      access = .filter([])
      walk = nil
    }

    /// Reads `committed` (a frozen committed version) from now on, through the views
    /// `resolve` finds for its indexes; `false`, leaving the table as it was, when one is
    /// not found.
    func rebase(onto committed: Table, resolving resolve: (IndexDefinition) -> (any TableIndex)?)
      -> Bool
    {
      switch recipe {
      case .walk(let definition, let range, let covered):
        guard let index = resolve(definition) else { return false }
        access = .walk(index, range, covered: covered)
        walk = Walk(index: index, range: range)
      case .filter(let recipes):
        var options: [Option] = []
        options.reserveCapacity(recipes.count)
        for recipe in recipes {
          guard let index = resolve(recipe.definition) else { return false }
          options.append(Option(index: index, condition: recipe.condition, covered: recipe.covered))
        }
        access = .filter(options)
        walk = nil
      }
      self.committed = committed
      return true
    }
  }

  let tables: [BoundTable]
  /// For each table, whether it walks an index within the same bounds as the table before it
  /// (the classes of a hierarchy each walk their own index of one attribute): a run reads
  /// those bounds from the request's values once.
  private let sharesBounds: [Bool]
  /// The condition with slots for the request's values, as top-level conjuncts; empty when
  /// every row matches.
  let conjuncts: [QueryExpression]
  let pruned: [(entity: ResolvedEntity, reason: String)]
  let order: OrderStrategy
  let comparator: ((RowReference, RowReference) -> Int)?
  let firstKeyComparator: ((RowReference, RowReference) -> Int)?
  /// The comparators' fault slot (``PlanTemplate/sortFaults``).
  let sortFaults: ArithmeticFaultSlot?
  let entityCount: Int
  /// Whether objects the session inserted and has not saved are left out.
  let onlyCommitted: Bool
  /// The columns of every table, in order: row tests and comparators read them. Empty when
  /// not recorded: a plan that does not sort forgets them with its compiled tests
  /// (``forgetCompiled()``), and records them again when it compiles a test that reads them.
  @exclusivity(unchecked) private(set) var columns: [AnyColumn]
  /// The same columns as each table's lists held them (attributes, then relationships, for
  /// each class): a table that still holds these very lists holds these columns.
  @exclusivity(unchecked) private var columnLists: [[AnyColumn]]
  /// Each table's tests, by access: 0 for a scan or a walk, 1 + n for the n-th option.
  @exclusivity(unchecked) private var tests: [[Test?]]
  /// The plan the last run returned: the next run refills it in place when nothing else holds
  /// it (a fetch has finished with it), so a repeated fetch allocates no plan.
  @exclusivity(unchecked) private var spare: QueryPlan?
  /// For each table of ``spare``, the test whose compiled condition and tested part it holds,
  /// when that test is compiled once (not per run): a refill with the same test leaves them as
  /// they are instead of copying them in again.
  @exclusivity(unchecked) private var spareTests: [Test?] = []
  /// The plan cache's ``QueryPlanCache/baseEpoch`` and the front end's declarations number
  /// when a run last found that the session reads the classes, committed and working tables
  /// and index declarations the plan holds: a run with both unchanged skips those checks
  /// (each is changed by whatever could make them fail).
  @exclusivity(unchecked) private var checkedAt: (epoch: Int, declarations: Int)?

  private init(
    tables: [BoundTable], conjuncts: [QueryExpression], template: PlanTemplate,
    onlyCommitted: Bool, columns: [AnyColumn], tableColumns: [Table]
  ) {
    self.tables = tables
    self.conjuncts = conjuncts
    pruned = template.pruned
    order = template.order
    comparator = template.comparator
    firstKeyComparator = template.firstKeyComparator
    sortFaults = template.sortFaults
    entityCount = template.entityCount
    self.onlyCommitted = onlyCommitted
    self.columns = columns
    columnLists = Self.columnLists(of: tableColumns)
    tests = tables.map { Array(repeating: nil, count: $0.accessCount) }
    sharesBounds = tables.indices.map { position in
      guard position > 0, case .walk(_, let bounds, _) = tables[position].recipe,
        case .walk(_, let previous, _) = tables[position - 1].recipe
      else { return false }
      return bounds.hasBounds(of: previous)
    }
  }

  private static func columnLists(of tables: [Table]) -> [[AnyColumn]] {
    tables.flatMap { [$0.attributeColumns, $0.relationshipColumns] }
  }

  /// Whether a move to another store version may keep the plan, released
  /// (``release(keeping:)``): one that sorts may not, since its comparators read the columns
  /// of the tables it was made for.
  var isRebasable: Bool { comparator == nil }

  /// Releases the tables and views of the version the plan ran on for the classes whose
  /// committed table `committed` replaced (the session moved to that version), with the
  /// compiled tests and the spare plan, which read them: the next run finds them again for
  /// the version it reads. Only for a plan that ``isRebasable``.
  func release(keeping committed: [Table]) {
    checkedAt = nil
    var released = false
    for table in tables where table.committed != nil {
      let index = table.entity.index
      guard index >= committed.count || committed[index] !== table.committed else { continue }
      table.release()
      released = true
    }
    if released { forgetVersion() }
  }

  /// Forgets what the plan holds of the version it last ran on: the compiled tests when they
  /// read its committed tables (``onlyCommitted``), else only the index views the spare plan's
  /// accesses hold. Tests that read only the working tables' columns stay (a run checks that
  /// the session still holds those columns), so a run after a save refills the spare plan.
  private func forgetVersion() {
    if onlyCommitted { return forgetCompiled() }
    guard spare != nil else { return }
    guard isKnownUniquelyReferenced(&spare) else {
      spare = nil
      spareTests = []
      return
    }
    let kept = spare.unsafelyUnwrapped
    for position in kept.tables.indices { kept.tables[position].access = .rows([]) }
  }

  /// Forgets the compiled tests, the spare plan and the columns they read.
  private func forgetCompiled() {
    tests = tables.map { Array(repeating: nil, count: $0.accessCount) }
    spare = nil
    spareTests = []
    columns = []
    columnLists = []
  }

  /// The view of `definition`'s index for `committed`, a frozen committed version of
  /// `entity`'s table, as the planner finds it for a session without unsaved changes: the
  /// index on the table's shelf (a save carries it there), else the one the planner finds.
  private static func view(
    _ definition: IndexDefinition, entity: ResolvedEntity, committed: Table, session: Session
  ) -> (any TableIndex)? {
    if let built = committed.indexShelf?.built(definition) { return built.view }
    let tables = session.base.tables
    guard entity.index < tables.count, tables[entity.index] === committed else { return nil }
    return IndexResolver(
      tables: tables, committedTables: tables, hasPendingChanges: false, memo: session.indexMemo
    ).view(definition, entity: entity)
  }

  /// The bound form of `template`, as planned for `request` over `source`; `nil` when the
  /// source has unsaved changes, the request has no condition with slots (``QueryRequest/slotted``)
  /// while it has a condition, the condition folds per class, or an index bound is not one
  /// of the request's values or a constant as it is.
  static func make(_ request: QueryRequest, template: PlanTemplate, source: QuerySource)
    -> BoundPlan?
  {
    guard !source.hasPendingChanges, request.residual == nil else { return nil }
    var conjuncts: [QueryExpression] = []
    var found: [IndexableCondition] = []
    if let predicate = request.predicate {
      guard let slotted = request.slotted, !predicate.isSpecializable else { return nil }
      conjuncts = IndexableCondition.conjuncts(of: slotted)
      guard conjuncts.count == IndexableCondition.conjuncts(of: predicate).count else {
        return nil
      }
      found = IndexableCondition.find(in: predicate)
    }
    func view(_ reference: PlanTemplate.IndexReference, _ entity: ResolvedEntity) -> (
      any TableIndex
    )? {
      guard let committed = reference.cleanCommitted,
        committed === source.committedTables[entity.index]
      else { return nil }
      return reference.view
    }
    var tables: [BoundTable] = []
    for recipe in template.tables {
      let entity = recipe.entity
      var access: Access
      switch recipe.recipe {
      case .walk(let reference, let isRanged):
        guard let index = view(reference, entity) else { return nil }
        var bound = BoundRange()
        var covered = ConjunctSet()
        if isRanged {
          guard
            let condition = found.first(where: {
              $0.attribute == reference.definition.attribute && !$0.isEqual
            }), case .range(let range) = condition.kind,
            let made = BoundRange(range, condition.sources, conjuncts)
          else { return nil }
          bound = made
          covered = condition.covered
        }
        access = .walk(index, bound, covered: covered)
      case .filter(let choices):
        var options: [Option] = []
        for choice in choices where !conjuncts.isEmpty {
          guard let index = view(choice.index, entity),
            let condition = found.first(where: {
              $0.attribute == choice.index.definition.attribute && $0.isEqual == choice.isEqual
            }), let bound = BoundCondition(condition, conjuncts: conjuncts)
          else { return nil }
          options.append(Option(index: index, condition: bound, covered: condition.covered))
        }
        access = .filter(options)
      }
      tables.append(
        BoundTable(
          entity: entity, table: recipe.table, committed: source.committedTables[entity.index],
          indexes: source.indexes[entity.index], access: access))
    }
    return BoundPlan(
      tables: tables, conjuncts: conjuncts, template: template,
      onlyCommitted: source.onlyCommittedObjects, columns: PlanTemplate.columns(of: source.tables),
      tableColumns: source.tables)
  }

  /// Whether the plan was made for `source`'s tables, committed tables and columns.
  func fits(_ source: QuerySource) -> Bool {
    tables.allSatisfy {
      source.tables[$0.entity.index] === $0.table
        && source.committedTables[$0.entity.index] === $0.committed
    } && (columnLists.isEmpty || PlanTemplate.hasColumns(columns, source.tables))
  }

  /// The plan of `request` with `values` in its slots, over `session`'s tables; `nil` when
  /// the session no longer reads what the plan was made for (see the type's summary) or a
  /// value does not convert to an index's keys.
  ///
  /// - Parameters:
  ///   - indexes: The index declarations of each class's table.
  ///   - declarations: A number the front end changes whenever `indexes` may answer otherwise
  ///     than before: while it and the session's base version stay the same, a run does not
  ///     check the classes, tables and declarations again; `nil`: every run checks them.
  /// - Complexity: O(columns of every table), plus the index lookups; plus O(tables read)
  ///   on the first run after the session moved to another version or `declarations` changed.
  func plan(
    _ request: QueryRequest, values: [QueryExpression], session: Session,
    indexes: (ResolvedEntity) -> [IndexDefinition], declarations: Int?
  ) throws -> QueryPlan? {
    guard !session.hasChanges else { return nil }
    let catalog = session.catalog
    let entities = catalog.entities
    let epoch = session.planCache.baseEpoch
    if let declarations, let checked = checkedAt, checked.epoch == epoch,
      checked.declarations == declarations
    {
      // Nothing the checks read changed since the last run that made them.
    } else {
      checkedAt = nil
      guard checkTables(session, entities: entities, indexes: indexes) else { return nil }
      if let declarations { checkedAt = (epoch, declarations) }
    }
    if !columnLists.isEmpty, !hasColumns(session, entities.count) {
      // A rollback or a refresh replaced a column the tests or comparators read.
      guard isRebasable else { return nil }
      forgetCompiled()
    }
    return try fill(request, values: values, catalog: catalog, entities: entities, session: session)
  }

  /// Whether the session reads the classes and index declarations the plan was made for,
  /// moving the plan to the tables of the version it reads (see
  /// ``rebase(onto:resolving:)``) when it may; `false` when the plan does not serve.
  private func checkTables(
    _ session: Session, entities: [ResolvedEntity],
    indexes: (ResolvedEntity) -> [IndexDefinition]
  ) -> Bool {
    session.planCache.tableChecks += 1
    guard entities.count == entityCount else { return false }
    for table in tables {
      let index = table.entity.index
      guard entities[index] === table.entity, indexes(table.entity) == table.indexes else {
        return false
      }
      let committed = session.committedTable(index)
      let working = session.table(index)
      guard table.committed !== committed || table.table !== working else { continue }
      // The session reads another version than the plan last ran on (a save or a refresh
      // since): the views of the committed tables it replaced are found anew.
      guard isRebasable else { return false }
      if table.committed !== committed {
        let entity = table.entity
        guard
          table.rebase(
            onto: committed,
            resolving: { Self.view($0, entity: entity, committed: committed, session: session) })
        else { return false }
      }
      // A working table is the same object for the session's life; a plan whose tests read
      // only the working tables keeps them (``forgetVersion()``).
      if table.table !== working || onlyCommitted, spare != nil || !columnLists.isEmpty {
        forgetCompiled()
      }
      table.table = working
    }
    for (entity, _) in pruned where entities[entity.index] !== entity { return false }
    return true
  }

  /// The plan of `request` with `values`, over the tables the plan holds (checked to be the
  /// session's): the spare plan refilled in place when nothing else holds it.
  private func fill(
    _ request: QueryRequest, values: [QueryExpression], catalog: SchemaCatalog,
    entities: [ResolvedEntity], session: Session
  ) throws -> QueryPlan? {
    let stop = request.stopAfter
    let refills = isKnownUniquelyReferenced(&spare) && spare!.tables.count == tables.count
    var plans: [TablePlan] = []
    // The tests a new plan holds (see ``spareTests``).
    var madeTests: [Test?] = []
    if !refills {
      plans.reserveCapacity(tables.count)
      madeTests.reserveCapacity(tables.count)
    }
    // The range the table before walked (see ``sharesBounds``).
    var walked: IndexValueRange?
    for position in tables.indices {
      let table = tables[position]
      var access: TableAccess
      var choice = 0
      if let walk = table.walk {
        // The walk read from its class: switching over `access` would copy its payload.
        let range: IndexValueRange
        if sharesBounds[position], let walked {
          range = walked
        } else {
          guard let read = walk.range(values) else { return nil }
          range = read
        }
        walked = range
        access = .ordered(walk.index, range)
      } else {
        walked = nil
        switch table.access {
        case .walk: return nil
        case .filter(let options) where options.count == 1 && options[0].answersInOneLookup:
          // One hash lookup: its rows, whose number decides against a scan (no count first).
          let option = options[0]
          guard let rows = option.condition.equalRows(option.index, values) else { return nil }
          access = .scan
          if QueryPlanner.prefersIndex(
            estimate: rows.count, live: table.table.unsafelyUnwrapped.liveCount, stop: stop)
          {
            access = .rows(rows)
            choice = 1
          }
        case .filter(let options):
          access = .scan
          var best: (option: Int, estimate: Int)?
          for (number, option) in options.enumerated() {
            guard let estimate = option.condition.estimate(option.index, values) else {
              return nil
            }
            if best == nil || estimate < best!.estimate { best = (number, estimate) }
          }
          if let best,
            QueryPlanner.prefersIndex(
              estimate: best.estimate, live: table.table.unsafelyUnwrapped.liveCount, stop: stop)
          {
            let option = options[best.option]
            access = .rows(option.condition.rows(option.index, values))
            choice = best.option + 1
          }
        }
      }
      let made = try test(position, choice, catalog: catalog, session: session)
      if refills, made.perRun == nil, spareTests[position] === made {
        // The spare plan holds this test already: only the access changes.
        if made.condition?.constant == false { access = .rows([]) }
        spare.unsafelyUnwrapped.tables[position].access = access
        continue
      }
      let (condition, predicate) = try run(
        made, position, values, catalog: catalog, session: session)
      if condition?.constant == false { access = .rows([]) }
      if refills {
        // Field by field: a whole `TablePlan` assigned would be copied and destroyed.
        let reused = spare.unsafelyUnwrapped
        reused.tables[position].access = access
        reused.tables[position].condition = condition
        reused.tables[position].predicate = predicate
        spareTests[position] = made.perRun == nil ? made : nil
      } else {
        plans.append(
          TablePlan(
            position: position, entity: table.entity, table: table.table.unsafelyUnwrapped,
            predicate: predicate,
            condition: condition, access: access, accessNote: Self.note))
        madeTests.append(made.perRun == nil ? made : nil)
      }
    }
    if refills {
      let reused = spare.unsafelyUnwrapped
      reused.request = request
      return reused
    }
    let made = QueryPlan(
      request: request, entity: entities[request.entity], tables: plans, pruned: pruned,
      order: order, comparator: comparator, firstKeyComparator: firstKeyComparator,
      onlyCommitted: onlyCommitted, sortFaults: sortFaults, isFromCache: true)
    spare = made
    spareTests = madeTests
    return made
  }

  /// A bound plan's access note: it is not explained (``QueryPlan/explanation`` of a plan
  /// that went through the planner describes the same access with its values).
  private static func note() -> String { "bound from the plan cache" }

  /// The row test of table `position` when the access numbered `choice` answers its
  /// conjuncts (made on its first use).
  private func test(_ position: Int, _ choice: Int, catalog: SchemaCatalog, session: Session)
    throws -> Test
  {
    if let known = tests[position][choice] { return known }
    let made = try makeTest(position, choice, catalog: catalog, session: session)
    tests[position][choice] = made
    return made
  }

  /// The compiled condition of `made`, the test of table `position`, with the request's
  /// `values`, and the part of the condition it tests.
  private func run(
    _ made: Test, _ position: Int, _ values: [QueryExpression], catalog: SchemaCatalog,
    session: Session
  ) throws -> (CompiledCondition?, QueryExpression?) {
    guard let kept = made.perRun else { return (made.condition, made.predicate) }
    let filled = kept.fillingSlots(values)
    let table = tables[position]
    let condition = try QueryPlanner.rowTest(
      filled, entity: table.entity, catalog: catalog, tables: allTables(session),
      committed: onlyCommitted ? table.committed.unsafelyUnwrapped : nil)
    return (condition, condition == nil ? nil : filled)
  }

  private func makeTest(
    _ position: Int, _ choice: Int, catalog: SchemaCatalog, session: Session
  ) throws -> Test {
    let table = tables[position]
    var covered = ConjunctSet()
    switch table.access {
    case .walk(_, _, let walked): covered = walked
    case .filter(let options): if choice > 0 { covered = options[choice - 1].covered }
    }
    let kept = conjuncts.enumerated().filter { !covered.contains($0.offset) }.map(\.element)
    let predicate = kept.isEmpty ? nil : kept.count == 1 ? kept[0] : .and(kept)
    if let predicate, predicate.hasSlots { return Test(nil, predicate: nil, perRun: predicate) }
    // Every row matches: nothing to compile, and no column read.
    if predicate == nil, !onlyCommitted { return Test(nil, predicate: nil, perRun: nil) }
    let all = allTables(session)
    let condition = try QueryPlanner.rowTest(
      predicate, entity: table.entity, catalog: catalog, tables: all,
      committed: onlyCommitted ? table.committed.unsafelyUnwrapped : nil)
    if condition != nil, columnLists.isEmpty {
      // The test reads these columns: a later run checks that the tables still hold them.
      columns = PlanTemplate.columns(of: all)
      columnLists = Self.columnLists(of: all)
    }
    return Test(condition, predicate: condition == nil ? nil : predicate, perRun: nil)
  }

  /// The session's working table of every class.
  private func allTables(_ session: Session) -> [Table] {
    (0..<entityCount).map { session.table($0) }
  }

  /// Whether the session's tables of the first `count` classes hold exactly ``columns``, in
  /// order (read lazily: no array per run).
  private func hasColumns(_ session: Session, _ count: Int) -> Bool {
    // The working tables read where they are: `Session.table(_:)` per class costs more than
    // the comparisons (a class without a working table yet takes the general check, which
    // makes it).
    if columnLists.count == 2 * count, session.working.count >= count {
      var same = true
      for entity in 0..<count where same {
        guard let table = session.working[entity] else {
          same = false
          break
        }
        same =
          Self.sharesStorage(table.attributeColumns, columnLists[2 * entity])
          && Self.sharesStorage(table.relationshipColumns, columnLists[2 * entity + 1])
      }
      if same { return true }
    }
    return PlanTemplate.hasColumns(columns, (0..<count).lazy.map { session.table($0) })
  }

  /// Whether `list` is stored in `held`'s very storage, so holds the same columns: storage
  /// that `held` keeps alive is never reused for another list, nor changed in place (a change
  /// of a list whose storage is shared copies it first).
  private static func sharesStorage(_ list: [AnyColumn], _ held: [AnyColumn]) -> Bool {
    list.withUnsafeBufferPointer { list in
      held.withUnsafeBufferPointer { held in
        list.count == held.count && list.baseAddress == held.baseAddress
      }
    }
  }
}
