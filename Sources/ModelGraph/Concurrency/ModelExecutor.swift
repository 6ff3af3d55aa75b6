/// An object that owns a ``ModelContext`` and runs the code that uses it.
///
/// A ``ModelActor`` reaches its context through its executor. Use the context only from code
/// the executor runs (the actor's methods); it is not `Sendable`.
public protocol ModelExecutor: AnyObject, Sendable {
  /// The context the executor's jobs use.
  var modelContext: ModelContext { get }
}

/// A model executor that is also the serial executor of the actor that holds it, so the
/// actor's methods run one at a time where the context lives.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}
