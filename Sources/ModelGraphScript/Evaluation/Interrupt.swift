import Synchronization

/// The Ctrl-C flag: the REPL's signal handler sets it, the runner's loops check it.
public enum Interrupt {
  private static let flag = Atomic<Bool>(false)

  /// Asks the running statement to stop.
  public static func request() { flag.store(true, ordering: .relaxed) }

  /// Clears a request (before the next statement).
  public static func reset() { flag.store(false, ordering: .relaxed) }

  /// Throws when a stop was requested, clearing the request.
  static func check() throws {
    if flag.load(ordering: .relaxed), flag.exchange(false, ordering: .relaxed) {
      throw EvaluationError(message: "interrupted")
    }
  }
}
