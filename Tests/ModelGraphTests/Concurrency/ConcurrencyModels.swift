import ModelGraph
import ModelGraphCore

// Models of the concurrency tests (prefixed `CC`): trips own their stops (cascade), a stop
// points back at its trip; `visits` is the counter two contexts race on.

class CCTrip: PersistentModel, IndexedModel {
  @Attribute var name: String
  @Attribute var visits = 0
  @Attribute var note = ""
  /// The writer that may delete the trip, so two writers never delete the same one.
  @Attribute var owner = 0
  @Relationship(deleteRule: .cascade, inverse: \CCStop.trip) var stops: [CCStop]

  class var indexes: [ModelIndex] { [.ordered(\CCTrip.visits)] }

  convenience init(name: String, owner: Int = 0) {
    self.init()
    self.name = name
    self.owner = owner
  }
}

class CCStop: PersistentModel {
  @Attribute var name: String
  @Relationship var trip: CCTrip?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// What a deep, sorted fetch through the `visits` index gets wrong, in one context version.
///
/// The context holds an unsaved stop, so it stays on the version it started from for both
/// fetches: the index range must return every trip the table holds, sorted.
func indexedFetchViolations(_ container: ModelContainer) throws -> [String] {
  let context = ModelContext(container)
  context.insert(CCStop(name: "pin"))
  defer { context.rollback() }
  let byIndex = try context.fetch(
    FetchDescriptor<CCTrip>(
      predicate: #Predicate { $0.visits >= 0 }, sortBy: [SortDescriptor(\.visits)]))
  let all = try context.fetchCount(FetchDescriptor<CCTrip>())
  var problems: [String] = []
  if byIndex.count != all {
    problems.append("the visits index returned \(byIndex.count) trips, the table holds \(all)")
  }
  let visits = byIndex.map(\.visits)
  if visits != visits.sorted() { problems.append("trips sorted by visits are out of order") }
  if Set(byIndex.map(ObjectIdentifier.init)).count != byIndex.count {
    problems.append("the visits index returned a trip twice")
  }
  return problems
}

/// What is wrong with the trips and stops of the container's committed version.
///
/// Read from the engine's tables, so a broken graph is reported instead of trapping in a
/// handle. Checked: every stop has a live trip (deleting a trip cascades, so a stop without
/// one is an orphan), every stop's trip lists it, every listed stop is alive and points back at
/// the listing trip, and no stop is listed twice.
func graphViolations(_ container: ModelContainer) -> [String] {
  let version = container.store.version
  guard let tripEntity = version.catalog.entity(named: "CCTrip"),
    let stopEntity = version.catalog.entity(named: "CCStop"),
    let stopsSlot = tripEntity.relationshipSlot(named: "stops"),
    let tripSlot = stopEntity.relationshipSlot(named: "trip")
  else { return ["the catalog lacks CCTrip or CCStop"] }
  let trips = version.tables[tripEntity.index]
  let stops = version.tables[stopEntity.index]
  func key(_ table: Table, _ row: Int) -> ObjectKey {
    ObjectKey(entity: table.entity.index, row: row, generation: table.generation(of: row))
  }
  var problems: [String] = []
  var listedBy: [ObjectKey: ObjectKey] = [:]
  trips.forEachLiveRow { row in
    let trip = key(trips, row)
    for stop in trips.relatedKeys(row: row, slot: stopsSlot) {
      guard stops.contains(stop) else {
        problems.append("trip \(trip) lists the dead stop \(stop)")
        continue
      }
      if let other = listedBy.updateValue(trip, forKey: stop) {
        problems.append("stop \(stop) is listed by trips \(other) and \(trip)")
      }
      let back = stops.relatedKey(row: Int(stop.row), slot: tripSlot)
      if back != trip {
        problems.append(
          "stop \(stop) is listed by \(trip) but points at \(String(describing: back))")
      }
    }
  }
  stops.forEachLiveRow { row in
    let stop = key(stops, row)
    guard let trip = stops.relatedKey(row: row, slot: tripSlot) else {
      problems.append("stop \(stop) is an orphan")
      return
    }
    guard trips.contains(trip) else {
      problems.append("stop \(stop) points at the dead trip \(trip)")
      return
    }
    if listedBy[stop] != trip {
      problems.append("stop \(stop) points at \(trip), which does not list it")
    }
  }
  return problems
}
