/// A ready-made ``ModelActor``: a context on a serial queue of its own that runs the closures
/// it is given, one at a time.
///
/// Use it for background work without declaring an actor:
/// ```swift
/// let worker = ModelWorker(modelContainer: container)
/// let id = try await worker.perform { context in
///   let trip = Trip(name: "Lisbon")
///   context.insert(trip)
///   try context.save()
///   return trip.persistentModelID
/// }
/// ```
/// The context lives as long as the worker, so unsaved changes made by one closure are still
/// there in the next. Return identifiers or values from a closure, never model objects.
public actor ModelWorker: ModelActor {
  /// The executor that owns the worker's context.
  public nonisolated let modelExecutor: any ModelExecutor
  /// The container of the worker's context.
  public nonisolated let modelContainer: ModelContainer

  /// Makes a worker with a new context on `modelContainer` and a serial queue of its own.
  public init(modelContainer: ModelContainer) {
    self.modelContainer = modelContainer
    modelExecutor = DefaultSerialModelExecutor(modelContainer: modelContainer)
  }

  /// Runs `body` with the worker's context on the worker's queue, after closures given
  /// before, and returns what it returns.
  ///
  /// - Parameter body: The work; it must not let model objects or the context escape.
  /// - Throws: What `body` throws. Unsaved changes stay in the context: save or roll back.
  public func perform<R: Sendable>(_ body: (ModelContext) throws -> R) rethrows -> R {
    try body(modelContext)
  }
}
