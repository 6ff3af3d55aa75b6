internal import ModelGraphCore

/// The unsaved changes of a context that a fetch over a store keeping only fetched objects
/// must answer through: the rows of the request's classes the context inserted, changed or
/// deleted.
///
/// The SQL reads the database, where these rows hold their saved values (or do not exist), so
/// it cannot tell whether they match. A fetch therefore widens the SQL's window by their number
/// (each can take, or free, one place of the window), loads what the SQL selects, and lets the
/// engine answer over the context's view, where the changed rows are already in memory. A
/// count leaves them out of the count PostgreSQL makes and counts them in memory.
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

  /// The pending rows of `request`'s classes in `session`, whatever the request's
  /// `includePendingChanges`: without it, the engine still tests and sorts changed objects on
  /// their unsaved values.
  init(_ request: QueryRequest, session: Session) {
    let catalog = session.catalog(covering: request.entity)
    let entities = Set(
      request.includesSubclasses ? catalog.subtree(of: request.entity) : [request.entity])
    for change in session.changeSet {
      let entity = change.entity
      if !change.deletedKeys.isEmpty { deletedEntities.insert(entity) }
      guard entities.contains(entity) else { continue }
      for row in change.insertedRows + change.updatedRows.map(\.row) + change.relationshipRows {
        rows.append((entity, row))
        counted.insert(Self.key(entity: entity, row: row))
      }
      rows += change.deletedKeys.map { (entity, Int($0.row)) }
    }
  }

  /// A row as one number.
  static func key(entity: Int, row: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: entity) << 32 | UInt64(truncatingIfNeeded: row)
  }

  /// Whether the matches of `request` over the context's view depend only on each object's
  /// own values (its attributes, type and to-one references), so that only the pending rows
  /// can match differently than in the database. A request that reads a related object's
  /// values, or a to-many relationship, can change answer for a row the context did not touch;
  /// so can a to-one reference when the context deleted objects of its destination's classes
  /// (the reference then reads as `nil`).
  func readsOnlyOwnValues(_ request: QueryRequest, catalog: SchemaCatalog) -> Bool {
    let toOne = ownReferences(of: request, catalog: catalog)
    let own = { (expression: QueryExpression) in
      Self.readsOnlyOwnValues(expression, toOne: toOne)
    }
    return (request.predicate.map(own) ?? true) && request.sort.allSatisfy { own($0.expression) }
  }

  /// The to-one relationships of `request`'s classes whose reference reads the same in the
  /// database and in the context's view: those whose destination's classes have no object
  /// the context deleted.
  private func ownReferences(of request: QueryRequest, catalog: SchemaCatalog) -> Set<String> {
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
    case .not(let part), .negative(let part), .count(let part): return own(part)
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

  /// `request`'s conjuncts that read only each object's own values, as one predicate (`nil`
  /// for none): selecting by them loads every object the whole predicate can match in the
  /// context's view.
  func ownConjuncts(of request: QueryRequest, catalog: SchemaCatalog) -> QueryExpression? {
    guard let predicate = request.predicate else { return nil }
    let parts: [QueryExpression]
    if case .and(let all) = predicate { parts = all } else { parts = [predicate] }
    let toOne = ownReferences(of: request, catalog: catalog)
    let kept = parts.filter { Self.readsOnlyOwnValues($0, toOne: toOne) }
    return kept.isEmpty ? nil : kept.count == 1 ? kept[0] : .and(kept)
  }
}
