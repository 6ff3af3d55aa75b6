/// The plans a session made, by the shape of their request, for reuse by requests of the same
/// shape with other values (a prepared statement without the preparing).
///
/// A request's shape is its class, whether it includes subclasses, its condition without the
/// captured values (`QueryExpression.shape`), its sort, offset and limit. A cached plan keeps
/// what does not depend on the values: the tables read and pruned, the index each table is
/// read through (or a scan), the order strategy and the sort comparators. Binding a request to
/// it redoes only what does: the index lookups with the new values and the compiled test of
/// the conjuncts the index does not answer.
///
/// A request whose front end names the slots of its values (``QueryRequest/slotted``), read
/// by a session without unsaved changes, also leaves a ``BoundPlan``: the same plan with the
/// index views of that version, its index bounds read from the slots and its row tests
/// compiled, which the next request of the shape runs with its own values without planning
/// (``QueryPlanner/boundPlan(_:values:session:includePendingChanges:indexes:declarations:)``).
///
/// A plan names the indexes it reads by their declarations, so it serves whatever the session
/// reads now: its unsaved changes (each use finds the index views with them laid over the
/// committed indexes) and the newer store versions a save or a refresh moves it to. A plan is
/// used only with the very working tables, classes and index declarations it was made for,
/// and, when it sorts, only while those tables hold the very columns its comparators read (a
/// rollback or a refresh that replaces a column makes it unusable). At most ``capacity``
/// shapes are kept; the oldest goes first. Not `Sendable`: it belongs to its session.
public final class QueryPlanCache {
  /// The most plans kept.
  public static let capacity = 64

  struct Key: Hashable {
    let entity: Int
    let includesSubclasses: Bool
    /// The condition's shape, when the request has no ``QueryShapeIdentity``.
    let predicate: QueryExpression?
    let identity: QueryShapeIdentity?
    let residual: String?
    let sort: [QuerySortKey]
    let offset: Int
    let limit: Int?
    let onlyCommitted: Bool

    init(_ request: QueryRequest, onlyCommitted: Bool) {
      entity = request.entity
      includesSubclasses = request.includesSubclasses
      identity = request.shapeIdentity
      predicate = identity == nil ? request.predicate?.shape : nil
      residual = request.residual
      sort = request.sort
      offset = request.offset
      limit = request.limit
      self.onlyCommitted = onlyCommitted
    }
  }

  private var templates: [Key: PlanTemplate] = [:]
  /// The templates' bound plans, by the same keys (found without copying a template).
  private var bounds: [Key: BoundPlan] = [:] {
    didSet {
      lastBound = nil
      generation &+= 1
    }
  }
  /// Advanced by every change of the bound plans kept: a ``PreparedBoundPlan`` taken at
  /// another generation may be one the cache dropped, and is not run.
  private(set) var generation = 0
  /// Advanced by every move of the session to another base version (each calls
  /// ``forgetViews(keeping:)``): a bound plan that found the session's tables to be its own at
  /// one epoch finds them so while it lasts, without checking them again.
  private(set) var baseEpoch = 0
  /// The bound plan ``bound(for:)`` found last, with its key; forgotten with any change of
  /// ``bounds``.
  private var lastBound: (key: Key, bound: BoundPlan)?
  private var order: [Key] = []
  /// The keys of the templates that hold index views or a bound plan
  /// (``PlanTemplate/holdsViews``): the only ones a move to another version can leave stale.
  private var holders: Set<Key> = []
  /// How many plans were reused, and how many were made and stored (for tests and `explain`).
  public private(set) var hits = 0
  public private(set) var misses = 0
  /// How many of the ``hits`` ran a bound plan, without the planner (for tests).
  public private(set) var boundHits = 0
  /// How many runs of a bound plan checked that the session reads the plan's classes, tables
  /// and index declarations (for tests): one after each move to another version.
  public internal(set) var tableChecks = 0

  /// An empty cache.
  public init() {}

  /// The number of plans cached.
  public var count: Int { templates.count }

  /// The template cached for `key`, if it was made for exactly `source`'s tables and indexes.
  func template(for key: Key, source: QuerySource) -> PlanTemplate? {
    guard let template = templates[key], template.fits(source) else { return nil }
    return template
  }

  /// The bound plan cached for `key`, if any (it checks itself that it fits what the session
  /// reads: ``BoundPlan/plan(_:values:session:indexes:)``).
  ///
  /// The last one found is compared first: a loop that fetches one shape finds it without
  /// hashing the key.
  func bound(for key: Key) -> BoundPlan? {
    if let last = lastBound, last.key == key { return last.bound }
    guard let bound = bounds[key] else { return nil }
    lastBound = (key, bound)
    return bound
  }

  /// Whether a plan may be bound (none is when the cache is empty).
  var holdsBoundPlans: Bool { !bounds.isEmpty }

  /// Records whether a lookup was answered.
  func record(hit: Bool, bound: Bool = false) {
    if hit { hits += 1 } else { misses += 1 }
    if bound { boundHits += 1 }
  }

  /// Keeps `template` for `key`, forgetting the oldest plan when full.
  func store(_ template: PlanTemplate, for key: Key) {
    bounds[key] = template.bound
    if template.holdsViews { holders.insert(key) } else { holders.remove(key) }
    if templates.updateValue(template, forKey: key) == nil {
      order.append(key)
      if order.count > Self.capacity {
        let oldest = order.removeFirst()
        templates[oldest] = nil
        bounds[oldest] = nil
        holders.remove(oldest)
      }
    }
  }

  /// Forgets the index views and committed tables the plans hold for tables other than
  /// `tables`, keeping their recipes (and the bound plans that do not sort, released:
  /// ``BoundPlan/release(keeping:)``): the session moved to the version of `tables`, and a view
  /// of a table that version no longer holds does not fit it (each plan finds its views again
  /// on its next use, and keeps those). Views of the tables the move left as they were (those
  /// a save did not write) stay, so the next use finds them without a lookup.
  ///
  /// - Complexity: O((plans holding views + bound plans) × tables read): O(1) when none does
  ///   (a session that fetches with unsaved changes, as a server's small transactions do,
  ///   keeps no views).
  func forgetViews(keeping tables: [Table]) {
    baseEpoch &+= 1
    guard !holders.isEmpty || !bounds.isEmpty else { return }
    func fits(_ bound: BoundPlan) -> Bool {
      bound.tables.allSatisfy {
        $0.entity.index < tables.count && tables[$0.entity.index] === $0.committed
      }
    }
    // A bound plan that does not sort is kept, released, across the move (its next run finds
    // the views of the version it reads): a server's small transactions, each a fetch and a
    // save, then run it on every fetch. Dropping one advances the generation.
    var dropped = false
    for bound in bounds.values where !fits(bound) {
      if bound.isRebasable { bound.release(keeping: tables) } else { dropped = true }
    }
    if dropped { bounds = bounds.filter { fits($0.value) || $0.value.isRebasable } }
    for key in holders {
      guard let template = templates[key] else {
        holders.remove(key)
        continue
      }
      guard template.holdsViewsOtherThan(tables) else { continue }
      let kept = template.forgettingViews(exceptOf: tables)
      templates[key] = kept
      if !kept.holdsViews { holders.remove(key) }
    }
  }

  /// The number of plans that hold index views (for tests).
  var plansHoldingViews: Int { templates.values.filter(\.holdsViews).count }

  /// The number of index views the plans' references hold, bound plans aside (for tests).
  var viewsHeld: Int {
    templates.values.reduce(0) { total, template in
      total
        + template.tables.reduce(0) { count, table in
          switch table.recipe {
          case .filter(let choices): count + choices.filter { $0.index.view != nil }.count
          case .walk(let reference, _): count + (reference.view == nil ? 0 : 1)
          }
        }
    }
  }

  /// Forgets every plan.
  public func removeAll() {
    guard !templates.isEmpty else { return }
    templates = [:]
    bounds = [:]
    holders = []
    order = []
  }
}

/// What a plan keeps for reuse: the tables, their access recipes, the order and comparators.
struct PlanTemplate {
  /// An index the plan reads: its declaration, and the view found when the plan was made,
  /// which serves again while the session reads the same committed table without changes.
  struct IndexReference {
    let definition: IndexDefinition
    /// `nil` once the session moved to another version.
    var view: (any TableIndex)?
    /// The committed table the view was found for, with no unsaved changes over it; `nil`
    /// when the view held some, or once the session moved to another version.
    var cleanCommitted: Table?

    /// The reference without its view.
    var withoutView: IndexReference {
      IndexReference(definition: definition, view: nil, cleanCommitted: nil)
    }
  }

  /// An index that can answer the conjuncts on its attribute (`==`/`IN`, or a range).
  struct IndexChoice {
    let index: IndexReference
    let isEqual: Bool
  }

  /// How one table is read, without the values the request brings.
  enum Recipe {
    /// Through the index among `choices` that yields the fewest rows for the request's values,
    /// or a scan when none is given or the best would yield too many.
    case filter([IndexChoice])
    /// An ordered index walked in key order, within the range the conjuncts on its attribute
    /// give when `isRanged`, else all of it.
    case walk(IndexReference, isRanged: Bool)
  }

  struct TableRecipe {
    let entity: ResolvedEntity
    let table: Table
    var recipe: Recipe
  }

  /// The plan ready to run with a request's values, when the template was bound to the
  /// committed version the session reads without changes; it holds that version's views.
  var bound: BoundPlan?

  /// Whether an index reference (or the bound plan) holds a view.
  var holdsViews: Bool {
    bound != nil
      || tables.contains {
        switch $0.recipe {
        case .filter(let choices): choices.contains { $0.index.view != nil }
        case .walk(let reference, _): reference.view != nil
        }
      }
  }

  /// The template with `recipes` for its tables.
  func with(recipes: [Recipe]) -> PlanTemplate {
    var copy = self
    for position in copy.tables.indices { copy.tables[position].recipe = recipes[position] }
    return copy
  }

  /// Whether the template holds a bound plan, or a view that ``forgettingViews(exceptOf:)``
  /// drops for `committed`.
  func holdsViewsOtherThan(_ committed: [Table]) -> Bool {
    func stale(_ reference: IndexReference, _ entity: Int) -> Bool {
      reference.view != nil && !Self.fits(reference, entity, committed)
    }
    return bound != nil
      || tables.contains { table in
        switch table.recipe {
        case .filter(let choices): choices.contains { stale($0.index, table.entity.index) }
        case .walk(let reference, _): stale(reference, table.entity.index)
        }
      }
  }

  /// Whether `reference`'s view was found for the very table `committed` holds for `entity`
  /// (without unsaved changes, ``IndexReference/cleanCommitted``).
  private static func fits(_ reference: IndexReference, _ entity: Int, _ committed: [Table])
    -> Bool
  {
    guard let clean = reference.cleanCommitted, entity < committed.count else { return false }
    return committed[entity] === clean
  }

  /// The template without the bound plan and the views its index references hold, except
  /// the views found for the very table `committed` holds for the entity (a view found
  /// without unsaved changes, ``IndexReference/cleanCommitted``).
  func forgettingViews(exceptOf committed: [Table]) -> PlanTemplate {
    func kept(_ reference: IndexReference, _ entity: Int) -> IndexReference {
      Self.fits(reference, entity, committed) ? reference : reference.withoutView
    }
    var copy = with(
      recipes: tables.map { table in
        let entity = table.entity.index
        return switch table.recipe {
        case .filter(let choices):
          .filter(
            choices.map { IndexChoice(index: kept($0.index, entity), isEqual: $0.isEqual) })
        case .walk(let reference, let isRanged): .walk(kept(reference, entity), isRanged: isRanged)
        }
      })
    copy.bound = nil
    return copy
  }

  private(set) var tables: [TableRecipe]
  let pruned: [(entity: ResolvedEntity, reason: String)]
  let order: OrderStrategy
  let comparator: ((RowReference, RowReference) -> Int)?
  let firstKeyComparator: ((RowReference, RowReference) -> Int)?
  /// The catalog and index declarations the plan was made with.
  let entityCount: Int
  let indexes: [[IndexDefinition]]
  /// The columns of every table read, in order, when the plan sorts: its comparators read
  /// them. Held, not just named: a column freed while the template lives could leave its
  /// address to a new column, which an identity check would take for the old one.
  let columns: [AnyColumn]
  /// Where the comparators' arithmetic records a fault, when a sort key has arithmetic.
  let sortFaults: ArithmeticFaultSlot?

  /// Whether the template reads exactly `source`'s tables and classes, with its index
  /// declarations, and its comparators read their columns.
  func fits(_ source: QuerySource) -> Bool {
    let entities = source.catalog.entities
    guard entities.count == entityCount,
      tables.allSatisfy({
        source.tables[$0.entity.index] === $0.table && entities[$0.entity.index] === $0.entity
      }),
      pruned.allSatisfy({ entities[$0.entity.index] === $0.entity }),
      columns.isEmpty || Self.hasColumns(columns, source.tables)
    else { return false }
    return source.indexes == indexes
  }

  /// The attribute and relationship columns of `tables`, in order.
  static func columns(of tables: [Table]) -> [AnyColumn] {
    tables.flatMap { $0.attributeColumns + $0.relationshipColumns }
  }

  /// Whether `tables` hold exactly `columns`, in order.
  static func hasColumns<Tables: Sequence<Table>>(_ columns: [AnyColumn], _ tables: Tables)
    -> Bool
  {
    var position = 0
    for table in tables {
      for column in table.attributeColumns {
        guard position < columns.count, columns[position] === column else { return false }
        position += 1
      }
      for column in table.relationshipColumns {
        guard position < columns.count, columns[position] === column else { return false }
        position += 1
      }
    }
    return position == columns.count
  }
}
