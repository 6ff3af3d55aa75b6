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
/// from `Am` reaches `R`.
///
/// **In memory.** Every object the walk visits is: a changed object is, and a resident
/// object's relationships hold resident objects only (the store loads what an object reaches,
/// see `PostgreSQLStore.makeResident(for:)`), so the inverse lists of a visited object name
/// resident objects. That holds for objects at any depth, so the walk never needs the
/// database.
///
/// **A relationship without inverse.** Nothing names the objects that hold a given object
/// in it, and they need not be resident (the store loads forward only: an object does not
/// bring in the objects that hold it). The walk still steps past such a relationship `ri`
/// when every object it holds at level `i` is new: a new object is held in the database by
/// nothing, and in the view only by objects whose list was written to hold it, which are
/// changed and so start the walk themselves (the first changed object of a chain is never new:
/// the object before it had to be written to hold it). An object at level `i` that the
/// committed version holds (saved, changed or deleted, or reached from one) may be held by
/// objects that are not resident: the walk gives up (`nil`), and the fetch keeps to its
/// covered conjuncts, selecting every object they may match.
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
  }

  /// The session whose unsaved changes are walked back.
  private let session: Session
  /// The catalog covering the request's classes.
  private let catalog: SchemaCatalog
  /// The request's classes.
  private let entities: Set<Int>
  /// The rows of objects the context inserted, changed or deleted, by class.
  private var changed: [Int: [Int]] = [:]
  /// The owners found along each path walked, `nil` when the walk gave up.
  private var walked: [[String]: [ObjectKey]?] = [:]

  /// A walk back to the objects of `entities` from what `session` changed.
  init(session: Session, catalog: SchemaCatalog, entities: Set<Int>) {
    (self.session, self.catalog, self.entities) = (session, catalog, entities)
    for change in session.changeSet {
      changed[change.entity, default: []] +=
        change.insertedRows + change.updatedRows.map(\.row) + change.relationshipRows
        + change.deletedKeys.map { Int($0.row) }
    }
  }

  /// The objects of the request's classes that reach, along `path`, an object the context
  /// changed, before or after its changes (with repeats); `nil` when they cannot all be named
  /// from memory.
  mutating func owners(along path: [String]) -> [ObjectKey]? {
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
      for entity in level.sorted() {
        guard let slot = catalog.entities[entity].relationshipSlot(named: name) else { continue }
        guard
          let destination = catalog.entity(
            named: catalog.entities[entity].relationships[slot].destination)
        else { return nil }
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
      hops.append(hop)
      level = hop.targets
    }
    return hops
  }

  /// ``owners(along:)``, walked.
  private func walk(_ path: [String]) -> [ObjectKey]? {
    guard let hops = hops(path) else { return nil }
    var owners: [ObjectKey] = []
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
            return nil
          }
          for name in hop.inverses[entity] ?? [] {
            guard let slot = catalog.entities[entity].relationshipSlot(named: name) else {
              continue
            }
            for owner in table.relatedKeys(row: row, slot: slot)
            where below.contains(Int(owner.entity)) {
              if index == 0 {
                owners.append(owner)
              } else {
                next.insert(FetchedPendingRows.key(entity: Int(owner.entity), row: Int(owner.row)))
              }
            }
          }
        }
        frontier = next
      }
    }
    return owners
  }
}
