import ModelGraph
import Testing

/// An identifier that resolved to no trip.
struct MissingTrip: Error {
  let id: PersistentIdentifier
}

/// A model actor declared the short way: an executor, made in the initializer.
actor TripImporter: ModelActor {
  nonisolated let modelExecutor: any ModelExecutor

  init(modelContainer: ModelContainer) {
    modelExecutor = DefaultSerialModelExecutor(modelContainer: modelContainer)
  }

  /// Inserts one trip per name, each with a stop, saves, and returns the trips' identifiers.
  func insertTrips(named names: [String], owner: Int = 0) throws -> [PersistentIdentifier] {
    let trips = names.map { CCTrip(name: $0, owner: owner) }
    for trip in trips {
      modelContext.insert(trip)
      trip.stops = [CCStop(name: "\(trip.name) stop")]
    }
    try modelContext.save()
    return trips.map(\.persistentModelID)
  }

  /// The names of the trips and of their stops that `ids` identify, read in this actor's
  /// context; `nil` for an identifier that does not resolve.
  func describe(_ ids: [PersistentIdentifier]) -> [String?] {
    ids.map { id in
      self[id, as: CCTrip.self].map { trip in
        "\(trip.name): \(trip.stops.map(\.name).joined(separator: ","))"
      }
    }
  }

  /// Sets the note or the visits of the trip `id` identifies and saves.
  func update(_ id: PersistentIdentifier, note: String? = nil, visits: Int? = nil) throws {
    guard let trip = self[id, as: CCTrip.self] else { throw MissingTrip(id: id) }
    if let note { trip.note = note }
    if let visits { trip.visits = visits }
    try modelContext.save()
  }

  /// Renames the trip with the documented retry loop: refetch, redo, save; after a conflict
  /// roll back and start over. `beforeSave` runs before each save with the attempt's number.
  ///
  /// - Returns: The number of attempts and the conflicts that refused the earlier ones.
  func rename(
    _ id: PersistentIdentifier, to name: String, beforeSave: @Sendable (Int) throws -> Void
  ) throws -> (attempts: Int, conflicts: [ModelConflict]) {
    var conflicts: [ModelConflict] = []
    for attempt in 1...3 {
      let descriptor = FetchDescriptor<CCTrip>(predicate: #Predicate { $0.persistentModelID == id })
      guard let trip = try modelContext.fetch(descriptor).first else { break }
      trip.name = name
      try beforeSave(attempt)
      do {
        try modelContext.save()
        return (attempt, conflicts)
      } catch let error as ModelError where error.code == .conflict {
        modelContext.rollback()
        conflicts += error.conflicts
      }
    }
    return (0, conflicts)
  }

  /// Whether the current code runs on this actor's model executor.
  func isOnModelExecutor() -> Bool {
    (modelExecutor as? DefaultSerialModelExecutor)?.isIsolatingCurrentContext() == true
  }

  /// Records an issue if the current code runs on `executor` (another actor's).
  func assertNotOn(_ executor: DefaultSerialModelExecutor) {
    #expect(executor.isIsolatingCurrentContext() == false)
  }

  /// The number of trips in the actor's context.
  func tripCount() throws -> Int {
    try modelContext.fetchCount(FetchDescriptor<CCTrip>())
  }

  /// Writes the container's snapshot from inside the actor.
  func snapshot() async throws -> Int {
    try await modelContainer.snapshot()
  }
}

/// A model actor declared as SwiftData's `@ModelActor` macro expands, ported unchanged.
actor MacroStyleImporter: ModelActor {
  nonisolated let modelExecutor: any ModelExecutor
  nonisolated let modelContainer: ModelContainer

  init(modelContainer: ModelContainer) {
    let modelContext = ModelContext(modelContainer)
    modelExecutor = DefaultSerialModelExecutor(modelContext: modelContext)
    self.modelContainer = modelContainer
  }

  /// Inserts a trip, saves, and says whether this ran on the model executor.
  func insertTrip(named name: String) throws -> Bool {
    modelContext.insert(CCTrip(name: name))
    try modelContext.save()
    return (modelExecutor as? DefaultSerialModelExecutor)?.isIsolatingCurrentContext() == true
  }
}
