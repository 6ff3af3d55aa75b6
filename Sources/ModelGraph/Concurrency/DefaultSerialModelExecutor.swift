internal import Dispatch

/// A model executor that runs jobs one at a time, in order, on a serial dispatch queue of its
/// own.
///
/// The queue runs outside Swift's cooperative pool, so a long save or fetch on the actor
/// does not hold a thread that other tasks wait for. Make one per actor:
/// ```swift
/// modelExecutor = DefaultSerialModelExecutor(modelContainer: modelContainer)
/// ```
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
  // @unchecked Sendable: `modelContext` is the only state that is not Sendable. The executor
  // never touches it; the code that uses it is the actor's isolated code (`ModelActor`'s
  // `modelContext` is actor-isolated), which runs only as jobs on `queue`, and `queue` is
  // serial, so no two uses overlap. Reading the context's `container` (an immutable reference
  // to a Sendable object) is safe from anywhere. `queue` and `key` are thread-safe.

  /// The context the executor's jobs use; read it only from those jobs.
  public let modelContext: ModelContext
  private let queue: DispatchQueue
  /// Set on `queue` only, so its presence tells whether the current code runs on `queue`.
  private let key = DispatchSpecificKey<Bool>()

  /// Makes an executor with its own serial queue that owns `modelContext`.
  ///
  /// Hand over the context: do not use it anywhere else afterwards.
  public init(modelContext: ModelContext) {
    self.modelContext = modelContext
    queue = DispatchQueue(label: "ModelGraph.DefaultSerialModelExecutor")
    queue.setSpecific(key: key, value: true)
  }

  /// Makes an executor with its own serial queue and a new context on `modelContainer`.
  public convenience init(modelContainer: ModelContainer) {
    self.init(modelContext: ModelContext(modelContainer))
  }

  /// Schedules `job` after the jobs already enqueued.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // Unowned, as in SE-0392's executors: a job on this executor belongs to a task isolated to
    // the actor that holds the executor, which keeps both alive until the job has run. The
    // block does not retain the executor, so the context (and its container, with the file
    // lock) is released when the actor is, not when the queue gets round to freeing the block.
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  /// This executor, unowned, as the runtime identifies it.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Whether the current code runs on this executor's queue.
  public func isIsolatingCurrentContext() -> Bool? {
    DispatchQueue.getSpecific(key: key) == true
  }

  /// Traps unless the current code runs on this executor's queue.
  public func checkIsolated() {
    require(
      DispatchQueue.getSpecific(key: key) == true,
      "code isolated to a model actor ran off its DefaultSerialModelExecutor's queue")
  }
}
