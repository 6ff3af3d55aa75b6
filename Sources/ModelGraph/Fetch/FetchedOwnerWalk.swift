internal import ModelGraphCore

/// The objects of a request's classes that reach, along a path of relationships, an object the
/// context inserted, changed or deleted: the owners a fetch with unsaved changes over a store
/// keeping only fetched objects adds to its pending rows (see ``FetchedPendingRows``).
///
/// For a path `r1 … rn`, level 0 holds the request's classes and level `i` the classes `ri`
/// leads to from level `i - 1`. The walk starts at level `n` from the changed objects there,
/// steps back one level through the inverse of `ri`, adds the changed objects of level
/// `i - 1`, and so on down to level 0. It walks once through the working tables (the
/// context's view) and once through the committed ones (the version the context is based on,
/// which the database holds once the fetch has moved the context to it).
///
/// **Why that finds every object that can read differently.** Let `R`, unchanged, read a
/// different value along the path in the database and in the context's view. Then some chain
/// `R = A0 → A1 → … → Ak` along the path (in the database, or in the view) meets a changed
/// object: unchanged objects hold the same attributes and the same relationship lists in
/// both, and an object deleted in the context, read as gone there, is changed. Let `Am` be the
/// first changed object of the chain (`m ≥ 1`). The chain up to `Am` is in the tables the walk
/// reads (in the database's chain, every object exists in the committed version; in the
/// view's, `A0 … Am-1` are unchanged, so they hold the same lists in the working tables), and
/// each table keeps inverses in step, so `Ai` is in the inverse of `ri` of `Ai+1`: the walk
/// from `Am` reaches `R`, unless it first meets a relationship without inverse (below).
///
/// **In memory.** Every object the walk visits is: a changed object is, and a resident
/// object's relationships hold resident objects only (the store loads what an object reaches,
/// see `PostgreSQLStore.makeResident(for:holders:)`), so the inverse lists of a visited object
/// name resident objects. That holds for objects at any depth, so the walk never needs the
/// database.
///
/// **A relationship without inverse.** Nothing in memory names the objects that hold a given
/// object in it, and they need not be resident (the store loads forward only: an object does
/// not bring in the objects that hold it, so scanning the resident ones would miss some).
/// Where the walk meets such a relationship `ri`:
/// - a new object at level `i` needs nothing: the database holds it nowhere, and in the view
///   only objects whose list was written to hold it do, which are changed and start the walk
///   themselves (the first changed object of a chain is never new: the object before it had
///   to be written to hold it);
/// - for a saved object `z` at level `i` (changed, or reached from a changed one), the walk
///   names instead a condition, ``Found/holders``: the tested object reaches `z` along
///   `r1 … ri`. The fetch's SQL selects the objects matching it, in the database, with those
///   matching the request. That covers the chains the walk stops at: in the database's chain,
///   `R` reaches `Ai = z` there by definition; in the view's, `A0 … Ai-1` are unchanged (they
///   come before the first changed object), so they hold the same lists in the database, and
///   `R` reaches `z` there too.
///
/// Past ``holderLimit`` such objects (or through a relationship that is to-one in one class
/// and to-many in another, which has no condition), the walk gives up (`nil`), and the fetch
/// keeps to its covered conjuncts.
struct FetchedOwnerWalk {
  /// One step of a path: for each class the relationship leads to, the inverses there.
  private struct Hop {
    /// The classes the relationship leads to, with their subclasses.
    var targets: Set<Int> = []
    /// The inverse's names, by class led to.
    var inverses: [Int: Set<String>] = [:]
    /// The classes led to where the relationship (from one of the classes holding it) has no
    /// inverse.
    var uninverted: Set<Int> = []
    /// Whether the relationship is to-many; `nil` when it is to-many in one class holding it
    /// and to-one in another.
    var isToMany: Bool? = nil
  }

  /// What the walk along one path found.
  struct Found: Equatable {
    /// The objects of the request's classes that reach a changed object (with repeats).
    var owners: [ObjectKey] = []
    /// Conditions on the tested object (one for each level where the walk stopped): that it
    /// reaches, along the path so far, one of the saved objects met past a relationship
    /// without inverse.
    var holders: [QueryExpression] = []
  }

  /// The most saved objects past relationships without inverse that a walk names in its
  /// ``Found/holders`` before giving up.
  static let holderLimit = 256

  /// The session whose unsaved changes are walked back.
  private let session: Session
  /// The catalog covering the request's classes.
  private let catalog: SchemaCatalog
  /// The request's classes.
  private let entities: Set<Int>
  /// The rows of objects the context inserted, changed or deleted, by class.
  private var changed: [Int: [Int]] = [:]
  /// What the walk found along each path walked, `nil` when it gave up.
  private var walked: [[String]: Found?] = [:]

  /// A walk back to the objects of `entities` from what `session` changed.
  ///
  /// - Parameters:
  ///   - session: The session whose unsaved changes are walked back.
  ///   - changes: The session's ``Session/changeSet``, which the caller has made already.
  ///   - catalog: The catalog covering `entities`.
  ///   - entities: The request's classes.
  init(
    session: Session, changes: [EntityChanges], catalog: SchemaCatalog, entities: Set<Int>
  ) {
    (self.session, self.catalog, self.entities) = (session, catalog, entities)
    for change in changes {
      changed[change.entity, default: []] +=
        change.insertedRows + change.updatedRows.map(\.row) + change.relationshipRows
        + change.deletedKeys.map { Int($0.row) }
    }
  }

  /// The objects of the request's classes that reach, along `path`, an object the context
  /// changed, before or after its changes, and the conditions selecting in the database those
  /// that memory cannot name; `nil` when the walk gives up.
  mutating func owners(along path: [String]) -> Found? {
    if let known = walked[path] { return known }
    let found = walk(path)
    walked[path] = found
    return found
  }

  /// The steps of `path`, from the request's classes on; `nil` when a relationship leads to
  /// a class the catalog does not know.
  private func hops(_ path: [String]) -> [Hop]? {
    var hops: [Hop] = []
    var level = entities
    for name in path {
      var hop = Hop()
      var kinds: Set<Bool> = []
      for entity in level.sorted() {
        guard let slot = catalog.entities[entity].relationshipSlot(named: name) else { continue }
        let relationship = catalog.entities[entity].relationships[slot]
        guard let destination = catalog.entity(named: relationship.destination) else {
          return nil
        }
        kinds.insert(relationship.isToMany)
        for target in catalog.subtree(of: destination.index) {
          hop.targets.insert(target)
          if let inverse = catalog.inverseSlot(of: slot, in: entity, target: target) {
            hop.inverses[target, default: []].insert(
              catalog.entities[target].relationships[inverse].name)
          } else {
            hop.uninverted.insert(target)
          }
        }
      }
      hop.isToMany = kinds.count == 1 ? kinds.first : nil
      hops.append(hop)
      level = hop.targets
    }
    return hops
  }

  /// ``owners(along:)``, walked.
  private func walk(_ path: [String]) -> Found? {
    guard let hops = hops(path) else { return nil }
    var found = Found()
    // The saved objects met past a relationship without inverse, by level.
    var stops: [Int: Set<UInt64>] = [:]
    for committed in [false, true] {
      var frontier: Set<UInt64> = []
      for index in hops.indices.reversed() {
        let hop = hops[index]
        for entity in hop.targets {
          for row in changed[entity] ?? [] {
            frontier.insert(FetchedPendingRows.key(entity: entity, row: row))
          }
        }
        let below = index == 0 ? entities : hops[index - 1].targets
        var next: Set<UInt64> = []
        for key in frontier {
          let (entity, row) = (Int(key >> 32), Int(key & 0xFFFF_FFFF))
          let table = committed ? session.committedTable(entity) : session.table(entity)
          guard table.isAlive(row) else { continue }
          if hop.uninverted.contains(entity) && session.committedTable(entity).isAlive(row) {
            stops[index, default: []].insert(key)
          }
          for name in hop.inverses[entity] ?? [] {
            guard let slot = catalog.entities[entity].relationshipSlot(named: name) else {
              continue
            }
            for owner in table.relatedKeys(row: row, slot: slot)
            where below.contains(Int(owner.entity)) {
              if index == 0 {
                found.owners.append(owner)
              } else {
                next.insert(FetchedPendingRows.key(entity: Int(owner.entity), row: Int(owner.row)))
              }
            }
          }
        }
        frontier = next
      }
    }
    guard stops.values.reduce(0, { $0 + $1.count }) <= Self.holderLimit else { return nil }
    for (index, keys) in stops.sorted(by: { $0.key < $1.key }) {
      let objects = keys.sorted().map { key in
        let (entity, row) = (Int(key >> 32), Int(key & 0xFFFF_FFFF))
        return ObjectKey(
          entity: entity, row: row,
          generation: session.committedTable(entity).generation(of: row))
      }
      guard
        let reaching = Self.reaching(
          objects, along: path, hops: hops, from: .root, at: 0, upTo: index)
      else { return nil }
      found.holders.append(reaching)
    }
    return found
  }

  /// The condition that `base` (at level `level`) reaches one of `objects` along the
  /// relationships `path[level...last]`; `nil` when one of them is to-one in one class and
  /// to-many in another.
  private static func reaching(
    _ objects: [ObjectKey], along path: [String], hops: [Hop], from base: QueryExpression,
    at level: Int, upTo last: Int
  ) -> QueryExpression? {
    guard let isToMany = hops[level].isToMany else { return nil }
    let related = QueryExpression.relationship(base, path[level])
    guard level < last else {
      let each = objects.map { object -> QueryExpression in
        isToMany
          ? .contains(related, .object(object)) : .comparison(related, .equal, .object(object))
      }
      return each.count == 1 ? each[0] : .or(each)
    }
    guard isToMany else {
      return reaching(objects, along: path, hops: hops, from: related, at: level + 1, upTo: last)
    }
    // Variables far above the request's own, bound only here.
    let variable = 1_000 + level
    return reaching(
      objects, along: path, hops: hops, from: .variable(variable), at: level + 1, upTo: last
    ).map { .any(related, variable: variable, $0) }
  }
}
