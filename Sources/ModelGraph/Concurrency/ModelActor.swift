public import ModelGraphCore

/// An actor that owns a ``ModelContext`` and runs on that context's executor, as SwiftData's
/// `@ModelActor` actors do.
///
/// There is no macro: declare the executor, and make it in the initializer.
/// ```swift
/// actor TripImporter: ModelActor {
///   nonisolated let modelExecutor: any ModelExecutor
///
///   init(modelContainer: ModelContainer) {
///     modelExecutor = DefaultSerialModelExecutor(modelContainer: modelContainer)
///   }
///
///   func importTrips(named names: [String]) throws -> [PersistentIdentifier] {
///     let trips = names.map { Trip(name: $0) }
///     for trip in trips { modelContext.insert(trip) }
///     try modelContext.save()
///     return trips.map(\.persistentModelID)
///   }
/// }
/// ```
/// The actor's methods run one at a time on the executor (``unownedExecutor`` comes from
/// ``modelExecutor``), so they may use ``modelContext`` freely. Model objects stay inside the
/// actor; pass their ``ModelObject/persistentModelID`` out and look them up again with
/// ``ModelContext/model(for:)`` where they are needed. Code written for SwiftData that also
/// declares `nonisolated let modelContainer` works unchanged.
public protocol ModelActor: Actor {
  /// The container of the actor's context.
  nonisolated var modelContainer: ModelContainer { get }
  /// The executor that owns the actor's context and runs the actor's methods.
  nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
  /// The actor's context: use it only inside the actor.
  public var modelContext: ModelContext { modelExecutor.modelContext }

  /// The container of ``modelContext``, for actors that do not store it themselves.
  public nonisolated var modelContainer: ModelContainer {
    // Reads only the context's immutable `container` reference, which is safe from any thread.
    modelExecutor.modelContext.container
  }

  /// The executor the actor's methods run on: ``modelExecutor``, which must be a
  /// `SerialExecutor` (``DefaultSerialModelExecutor`` is).
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    guard let executor = modelExecutor as? any SerialExecutor else {
      fatalError(
        "\(type(of: self)).modelExecutor is a \(type(of: modelExecutor)), which is not a "
          + "SerialExecutor: a model actor runs on its model executor")
    }
    return executor.asUnownedSerialExecutor()
  }

  /// The object of class `type` that `id` identifies, or `nil` if none lives in the actor's
  /// context (deleted, another class, or another store's identifier).
  ///
  /// - Complexity: O(1).
  public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
    modelContext.model(for: id) as? T
  }
}
