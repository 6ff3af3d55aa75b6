import ModelGraph

/// A container holding trips T1, T2 and T3, T1 with stops x and y, T2 with stop z.
struct ConflictFixture {
  let container: ModelContainer

  init() throws {
    container = try makeInMemoryContainer(CCTrip.self, CCStop.self)
    let setup = ModelContext(container)
    let trips = ["T1", "T2", "T3"].map { CCTrip(name: $0) }
    for trip in trips { setup.insert(trip) }
    trips[0].stops = [CCStop(name: "x"), CCStop(name: "y")]
    trips[1].stops = [CCStop(name: "z")]
    try setup.save()
  }

  /// A new context on the container, with `policy`.
  func context(_ policy: MergePolicy = .rejectConflicts) -> ModelContext {
    let context = ModelContext(container)
    context.mergePolicy = policy
    return context
  }

  /// Each trip's name with its stops' names, sorted, as a fresh context reads them.
  func layout() throws -> [String: [String]] {
    let trips = try ModelContext(container).fetch(FetchDescriptor<CCTrip>())
    return Dictionary(uniqueKeysWithValues: trips.map { ($0.name, $0.stops.map(\.name).sorted()) })
  }

  /// The names of the stops that exist.
  func stopNames() throws -> [String] {
    try ModelContext(container).fetch(FetchDescriptor<CCStop>()).map(\.name).sorted()
  }
}

extension ModelContext {
  func trip(_ name: String) throws -> CCTrip {
    guard
      let trip = try fetch(FetchDescriptor<CCTrip>(predicate: #Predicate { $0.name == name }))
        .first
    else { throw ModelError(.predicateFailed, message: "no trip \(name)") }
    return trip
  }

  func stop(_ name: String) throws -> CCStop {
    guard
      let stop = try fetch(FetchDescriptor<CCStop>(predicate: #Predicate { $0.name == name }))
        .first
    else { throw ModelError(.predicateFailed, message: "no stop \(name)") }
    return stop
  }

  /// Saves, expecting a refusal for conflicts; returns their kinds.
  func refusedConflicts() -> [ModelConflict.Kind] {
    do {
      try save()
      return []
    } catch let error as ModelError where error.code == .conflict {
      return error.conflicts.map(\.kind)
    } catch {
      return []
    }
  }
}
