internal import ModelGraphCore

/// The unsaved changes of a context that a fetch over a store keeping only fetched objects
/// must answer through: the rows of the request's classes the context inserted, changed or
/// deleted, and, when the request reads related objects, the objects that reach, along the
/// paths of relationships it reads, an object the context inserted, changed or deleted
/// (``FetchedOwnerWalk``).
///
/// The SQL reads the database, where these rows hold their saved values (or do not exist), so
/// it cannot tell whether they match. A fetch therefore widens the SQL's window by their number
/// (each can take, or free, one place of the window), loads what the SQL selects, and lets the
/// engine answer over the context's view, where the rows are already in memory (the context
/// changed them, or they reach, or are reached by, an object it changed). A count leaves them
/// out of the count PostgreSQL makes and counts them in memory.
///
/// Every other object reads the same in the database and in the context's view when the
/// request is ``coversRequest``: its own values are saved ones, and so are those of the
/// objects it reaches along the paths the request reads (a changed object on the way would
/// have made it an owner).
struct FetchedPendingRows {
  /// The rows of inserted, changed and deleted objects, as `(entity, row)`.
  private(set) var rows: [(entity: Int, row: Int)] = []
  /// The rows of inserted and changed objects (deleted ones match nothing), by ``key(_:)``.
  private(set) var counted: Set<UInt64> = []

  /// The number of rows the window widens by.
  var count: Int { rows.count }

  /// The rows, by ``key(entity:row:)``.
  var keys: Set<UInt64> { Set(rows.map { Self.key(entity: $0.entity, row: $0.row) }) }

  /// The classes with objects the context deleted, of any class: a to-one reference to one
  /// of them reads as `nil` in the context's view, unlike in the database.
  private(set) var deletedEntities: Set<Int> = []

  /// The request's conjuncts whose match can differ between the database and the context's
  /// view only for ``rows``, as one predicate (`nil` for none): selecting by them loads every
  /// object the whole predicate can match in the context's view.
  private(set) var coveredPredicate: QueryExpression? = nil

  /// Whether every conjunct and sort key of the request can read differently in the database
  /// and in the context's view only for ``rows`` and the objects ``holders`` selects: the
  /// whole request's SQL, its window widened by ``count`` and by the number of objects the
  /// holders select (loaded with it), then selects every object its answer needs.
  private(set) var coversRequest = false

  /// A condition on the tested object that selects, in the database, every object of the
  /// request's classes reaching a saved object the context changed past a relationship
  /// without inverse (which memory cannot name, see ``FetchedOwnerWalk``); `nil` for none.
  /// The SQL loads those objects, all of them, with the request's window widened by their
  /// number; or, without a window, the objects matching each covered conjunct or it.
  private(set) var holders: QueryExpression? = nil

  /// The pending rows of `request`'s classes in `session`, whatever the request's
  /// `includePendingChanges` (without it, the engine still tests and sorts changed objects on
  /// their unsaved values), with the owners of the objects changed along the paths of
  /// relationships the request reads.
  init(_ request: QueryRequest, session: Session) {
    let catalog = session.catalog(covering: request.entity)
    let entities = Set(
      request.includesSubclasses ? catalog.subtree(of: request.entity) : [request.entity])
    // Made once: the walk below reads it too.
    let changes = session.changeSet
    for change in changes {
      let entity = change.entity
      if !change.deletedKeys.isEmpty { deletedEntities.insert(entity) }
      guard entities.contains(entity) else { continue }
      for row in change.insertedRows + change.updatedRows.map(\.row) + change.relationshipRows {
        rows.append((entity, row))
        counted.insert(Self.key(entity: entity, row: row))
      }
      rows += change.deletedKeys.map { (entity, Int($0.row)) }
    }
    var walk = FetchedOwnerWalk(
      session: session, changes: changes, catalog: catalog, entities: entities)
    let reads = coveredReads(of: request, catalog: catalog, walk: &walk)
    (coveredPredicate, coversRequest) = (reads.predicate, reads.whole)
    holders =
      reads.holders.isEmpty ? nil : reads.holders.count == 1 ? reads.holders[0] : .or(reads.holders)
    var seen = keys
    for owner in reads.owners {
      let key = Self.key(entity: Int(owner.entity), row: Int(owner.row))
      guard seen.insert(key).inserted else { continue }
      rows.append((Int(owner.entity), Int(owner.row)))
      // A deleted owner is among the rows already, and matches nothing.
      if session.contains(owner) { counted.insert(key) }
    }
  }

  /// Whether a fetch that ran its SQL for `other` (before the context moved) can answer
  /// from what it loaded now that the pending rows are these: the same rows and the same
  /// reads of them.
  func matches(_ other: FetchedPendingRows) -> Bool {
    keys == other.keys && deletedEntities == other.deletedEntities && selectsAs(other)
  }

  /// Whether SQL without a window selects for these pending rows what it selected for
  /// `other`'s: the same covered conjuncts and the same holders (how many rows are pending
  /// does not matter without a window).
  func selectsAs(_ other: FetchedPendingRows) -> Bool {
    coversRequest == other.coversRequest && coveredPredicate == other.coveredPredicate
      && holders == other.holders
  }

  /// A row as one number.
  static func key(entity: Int, row: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: entity) << 32 | UInt64(truncatingIfNeeded: row)
  }

  /// The to-one relationships of `request`'s classes whose reference reads the same in the
  /// database and in the context's view: those whose destination's classes have no object
  /// the context deleted.
  func ownReferences(of request: QueryRequest, catalog: SchemaCatalog) -> Set<String> {
    let entities =
      request.includesSubclasses ? catalog.subtree(of: request.entity) : [request.entity]
    let relationships = entities.flatMap { catalog.entities[$0].relationships }
    let unsafe = relationships.filter { relationship in
      relationship.isToMany
        || catalog.entity(named: relationship.destination).map {
          !deletedEntities.isDisjoint(with: catalog.subtree(of: $0.index))
        } ?? true
    }
    return Set(relationships.map(\.name)).subtracting(unsafe.map(\.name))
  }

  /// Whether `expression` reads only the tested object's attributes, its type and the
  /// identity of what its to-one relationships in `toOne` reference.
  static func readsOnlyOwnValues(_ expression: QueryExpression, toOne: Set<String>) -> Bool {
    let own = { (part: QueryExpression) in readsOnlyOwnValues(part, toOne: toOne) }
    switch expression {
    case .constant, .object, .opaque: return true
    case .variable(let index): return index == 0
    case .attribute(let base, _): return base == .root
    case .relationship(let base, let name): return base == .root && toOne.contains(name)
    case .cast(let base, _), .typeTest(let base, _, _): return base == .root
    case .and(let parts), .or(let parts): return parts.allSatisfy(own)
    case .not(let part), .negative(let part), .count(let part), .narrow(let part, _):
      return own(part)
    case .comparison(let left, _, let right), .arithmetic(let left, _, let right),
      .string(let left, _, let right), .caseInsensitiveCompare(let left, let right),
      .coalesce(let left, let right), .contains(let left, let right):
      return own(left) && own(right)
    case .conditional(let test, let then, let otherwise):
      return own(test) && own(then) && own(otherwise)
    // A bound variable may be a related object: its values are not the row's.
    case .flatMap, .any, .all: return false
    }
  }
}
