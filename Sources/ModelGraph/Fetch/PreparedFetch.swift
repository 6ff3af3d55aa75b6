import ModelGraphCore
internal import ModelGraphPostgreSQL

/// A fetch descriptor compiled for one context: the engine's plan, the part of the predicate
/// left to Foundation, and whether Foundation sorts.
struct PreparedFetch {
  /// The engine's plan.
  let plan: QueryPlan
  /// `Predicate.evaluate` on an object, for a predicate the engine could not fully translate.
  let residual: ((ObjectKey) throws -> Bool)?
  /// Whether the sort has no engine equivalent: the engine returns every match unsorted, and
  /// the context sorts with `SortDescriptor` and slices.
  let sortsInMemory: Bool
  /// The offset and limit to apply after an in-memory sort.
  let offset: Int
  let limit: Int?
  /// The SQL that brought the candidates into memory, with a store that keeps only fetched
  /// objects.
  var sql: SQLFetch? = nil
  /// The number of objects selected before the offset and limit, when the database counted
  /// them (the plan then runs over objects in memory that may not include them).
  var databaseCount: Int? = nil
  /// Rows the database count left out (a context's unsaved changes), by
  /// ``FetchedPendingRows/key(entity:row:)``: the plan's matches among them are added to it.
  var countedInMemory: Set<UInt64>? = nil
}

extension ModelContext {
  /// ``prepareFetch(_:probe:loading:counting:)`` of `descriptor`, whose probe is read here.
  func prepareFetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, loading: Bool = true, counting: Bool = false
  ) throws -> PreparedFetch {
    try prepareFetch(
      descriptor, probe: FetchProbe(descriptor), loading: loading, counting: counting)
  }

  /// Translates and plans `descriptor`.
  ///
  /// With a store that keeps only fetched objects in memory, the candidates are first loaded
  /// through SQL (unless `loading` is false, for `explain`, or, when `counting`, PostgreSQL
  /// counts them: see `runFetched`).
  ///
  /// `probe` is the descriptor's ``FetchProbe``, which the fetch memo reads (a public fetch
  /// reads it in its caller's specialization for `T`).
  /// - Throws: ``SchemaError`` when `T` (or a class named in a type test) cannot be registered.
  func prepareFetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, probe: FetchProbe, loading: Bool = true,
    counting: Bool = false
  ) throws -> PreparedFetch {
    try checkWindow(descriptor)
    if descriptor.includePendingChanges { try checkRefusedInserts(of: T.self) }
    refreshIfClean()
    let entity = try entityIndex(for: T.self)
    if loading, fetchedOnlyStore == nil,
      let prepared = memoized(descriptor, probe, entity: entity)
    {
      return prepared
    }
    let predicate = descriptor.predicate
    let expressionType = predicate.map { ObjectIdentifier(type(of: $0.expression)) }
    var named: [Int] = []
    var expression: QueryExpression?
    var untranslated: [String] = []
    var identity: QueryShapeIdentity?
    var slotted: (template: QueryExpression, values: [QueryExpression])?
    var shape: PredicateShapeCache.Entry?
    if let predicate {
      (expression, identity, slotted, untranslated, shape) = try translate(
        predicate, named: &named)
    }
    _ = session.catalog(covering: named.reduce(entity, max))
    let sortKeys = SortTranslation.keys(descriptor.sortBy)
    let offset = max(descriptor.fetchOffset ?? 0, 0)
    var request = QueryRequest(
      entity: entity, includesSubclasses: descriptor.includesSubclasses, predicate: expression,
      sort: sortKeys ?? [], offset: sortKeys == nil ? 0 : offset,
      limit: sortKeys == nil ? nil : descriptor.fetchLimit)
    request.shapeIdentity = identity
    // A shape planned before, read through this context's tables: the cached plan runs with
    // this fetch's values, without translating or planning (explain plans, to describe).
    if loading, fetchedOnlyStore == nil, predicate == nil || identity != nil,
      let (plan, prepared) = QueryPlanner.boundPlan(
        request, values: slotted?.values ?? [], session: session,
        includePendingChanges: descriptor.includePendingChanges, indexes: indexDefinitions,
        declarations: indexDeclarations)
    {
      if sortKeys != nil, predicate == nil || shape != nil,
        let memoSort = FetchMemo.sortKeys(descriptor.sortBy)
      {
        fetchMemo.remember(
          FetchMemo.Entry(
            key: FetchMemo.Key(descriptor, expression: expressionType, sort: memoSort),
            shape: shape, identity: identity, request: request, plan: prepared,
            walkable: predicate.flatMap { ShapeKind.of(type(of: $0.expression)) }))
      }
      return PreparedFetch(
        plan: plan, residual: nil, sortsInMemory: sortKeys == nil, offset: offset,
        limit: descriptor.fetchLimit)
    }
    if let slotted {
      request.slotted = slotted.template
      if request.predicate == nil {
        request.predicate = slotted.template.fillingSlots(slotted.values)
      }
    }
    if !untranslated.isEmpty { request.residual = untranslated.joined(separator: "; and for ") }
    // The database may fail the predicate's arithmetic, as the engine's run would.
    let fetched = try ModelError.reportingArithmeticFaults {
      try runFetched(request, loading: loading, counting: counting)
    }
    if fetched.countedInMemory != nil {
      // Only the rows left out of the database's count are counted by the plan: all of them.
      (request.offset, request.limit) = (0, nil)
    }
    let source = QuerySource(
      session: session, includePendingChanges: descriptor.includePendingChanges,
      indexes: indexDefinitions)
    let planner = QueryPlanner(source: source)
    var plan: QueryPlan
    do {
      plan = try planner.plan(request)
    } catch let error as QueryError where request.predicate != nil && !error.isArithmeticFault {
      // Planning evaluates no row, so it never faults; were it to, the fault must not reach
      // `Predicate.evaluate`, which would stop the process on it. Nor may arithmetic that
      // `Predicate.evaluate` would stop the process on.
      if let predicate, let arithmetic = TrappingArithmetic.first(in: predicate.expression) {
        throw ModelError(
          refusing: [
            "the predicate computes \(arithmetic), and the engine cannot evaluate it (\(error))"
          ])
      }
      request.predicate = nil
      request.shapeIdentity = nil
      request.slotted = nil
      request.residual = "the whole predicate, which the engine cannot evaluate (\(error))"
      plan = try planner.plan(request)
    }
    let residual = request.residual == nil ? nil : predicate.map(makeResidual)
    return PreparedFetch(
      plan: plan, residual: residual, sortsInMemory: sortKeys == nil, offset: offset,
      limit: descriptor.fetchLimit, sql: fetched.sql, databaseCount: fetched.count,
      countedInMemory: fetched.countedInMemory)
  }

  /// The indexes of `entity`'s table: those its model class declares, or, for an entity no
  /// Swift class maps to, those its file declares.
  private func indexDefinitions(_ entity: ResolvedEntity) -> [IndexDefinition] {
    modelClassIfAny(forEntity: entity.index).map {
      ModelIndexCatalog.definitions(for: $0, entity: entity)
    } ?? entity.description.indexes
  }

  /// A number that changes whenever ``indexDefinitions(_:)`` may answer otherwise: the
  /// container's count of class registrations (a class registered may map an entity to
  /// another class, whose declarations differ; the catalog's entities are the bound plan's
  /// own concern).
  private var indexDeclarations: Int {
    container.classRegistrations.load(ordering: .acquiring)
  }

  /// The translation of `predicate`: from the context's shape cache when a predicate of the
  /// same shape was translated before (then only as its template with slots and the values,
  /// which a bound plan reads without filling them in), else translated (and its shape learnt,
  /// unless the cache knows it as one translated every time).
  /// The shape cache's entry comes with a translation it gave.
  /// - Throws: ``ModelError`` with code ``ModelError/Code/unsupportedPredicate`` when a part
  ///   left to `Predicate.evaluate` computes arithmetic it would stop the process on.
  private func translate<T>(_ predicate: Predicate<T>, named: inout [Int]) throws -> (
    QueryExpression?, QueryShapeIdentity?,
    slotted: (template: QueryExpression, values: [QueryExpression])?, untranslated: [String],
    shape: PredicateShapeCache.Entry?
  ) {
    var walker: PredicateShapeWalker?
    switch predicateShapes.match(predicate, context: self) {
    case .found(let template, let values, let identity, let entry):
      return (nil, identity, (template, values), [], entry)
    case .refused: walker = nil
    case .unknown: walker = PredicateShapeWalker.walk(predicate)
    }
    var classes: [Int] = []
    let translator = PredicateTranslator(context: self) { [unowned self] type in
      classes.append(try entityIndex(for: type))
    }
    let (expression, untranslated) = translator.translate(predicate)
    if !translator.refusals.isEmpty { throw ModelError(refusing: translator.refusals) }
    named += classes
    var identity: QueryShapeIdentity?
    var slotted: (template: QueryExpression, values: [QueryExpression])?
    if let walker {
      if let expression, untranslated.isEmpty, classes.isEmpty {
        if let learnt = predicateShapes.learn(
          predicate, walker: walker, translation: expression, context: self)
        {
          identity = learnt.identity
          slotted = (learnt.template, [])
        }
      } else {
        predicateShapes.refuse(walker)
      }
    }
    return (expression, identity, slotted, untranslated, nil)
  }

  /// `descriptor` prepared from the fetch memo: the bound plan of the entry whose class, tree
  /// type, sort, window, flags, shape and kinds of values it has, run with its values; `nil`
  /// when no entry matches or the plan does not serve (then the usual path prepares it).
  /// `probe` is the descriptor's predicate and first sort descriptor.
  private func memoized<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, _ probe: FetchProbe, entity: Int
  ) -> PreparedFetch? {
    guard
      let entry = fetchMemo.entry(for: descriptor, probe: probe, expression: probe.treeType),
      entry.request.entity == entity
    else { return nil }
    var values: [QueryExpression] = []
    if let tree = probe.tree {
      guard let shape = entry.shape, let input = probe.input, let walkable = entry.walkable,
        let converted = PredicateShapeWalker.match(
          tree, as: walkable, input: input, shape: shape.shape, converters: shape.converters,
          context: self, plain: predicateShapes.plainTranslator),
        QueryShapeIdentity(template: shape.number, values: converted) == entry.identity
      else { return nil }
      values = converted
    }
    session.cover(entity)
    guard
      let plan = QueryPlanner.boundPlan(
        entry.request, values: values, prepared: entry.plan, session: session,
        indexes: indexDefinitions, declarations: indexDeclarations)
    else {
      fetchMemo.forget(entry)
      return nil
    }
    fetchMemo.countHit()
    if probe.treeType != nil { predicateShapes.countHit() }
    return PreparedFetch(
      plan: plan, residual: nil, sortsInMemory: false, offset: max(descriptor.fetchOffset ?? 0, 0),
      limit: descriptor.fetchLimit)
  }

  /// Refuses a negative limit or offset.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidDescriptor``.
  func checkWindow<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws {
    // Checked one by one: a list of the two would be an allocation on every fetch.
    try checkNotNegative("fetchLimit", descriptor.fetchLimit)
    try checkNotNegative("fetchOffset", descriptor.fetchOffset)
  }

  private func checkNotNegative(_ name: String, _ value: Int?) throws {
    if let value, value < 0 {
      throw ModelError(.invalidDescriptor, message: "\(name) is \(value); it must be 0 or more")
    }
  }

  /// `predicate.evaluate` on the object of a key.
  private func makeResidual<T: PersistentModel>(_ predicate: Predicate<T>)
    -> (ObjectKey) throws -> Bool
  {
    { [unowned self] key in
      let object = object(for: key)
      // An object deleted in this context (seen by a fetch of saved state only) cannot be
      // read; it does not match.
      guard !object.isDeleted else { return false }
      do {
        return try predicate.evaluate(unsafeDowncast(object, to: T.self))
      } catch {
        throw ModelError(.predicateFailed, message: "the predicate threw: \(error)")
      }
    }
  }
}

extension ModelError {
  /// The error of a predicate refused for arithmetic `Predicate.evaluate` would compute
  /// (``Code/unsupportedPredicate``), naming each part and how to write it instead.
  init(
    refusing parts: [String],
    remedy: String = "compute it in a conjunct of its own, or outside the predicate"
  ) {
    self.init(
      .unsupportedPredicate,
      message: "the predicate is refused: "
        + parts.joined(separator: "; and ")
        + "; Foundation's Predicate.evaluate would compute it, and stop the process where it "
        + "overflows, divides by zero or inverts a range (\(remedy))")
  }
}
