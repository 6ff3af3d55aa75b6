#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that threads share through a POSIX mutex.
///
/// The engine's shared state (the store's current version, caches of class and key-path
/// facts) lives in one of these instead of `Synchronization.Mutex`: on Linux that type hands
/// the lock over through futex calls that ThreadSanitizer cannot see, so every contended lock
/// is reported as a race; a `pthread_mutex_t` is understood by the sanitizer, and is also the
/// cheaper lock on this platform (design.md measures 3.9 ns against 9.6 ns).
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written only inside `withLock`, between
  // pthread_mutex_lock and pthread_mutex_unlock on `mutex`, which lives as long as the object.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock guarding `value`.
  package init(_ value: sending Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed with \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock.
  ///
  /// - Complexity: One uncontended lock and unlock, plus `body`.
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock()
    defer { unlock() }
    return try body(&value)
  }

  /// Runs `body` with the value when the lock is free now; `nil`, without waiting and
  /// without running `body`, when another thread (or this one) holds it.
  ///
  /// For work that may be skipped, called where the caller cannot know which locks its own
  /// thread holds: it never waits, so it can neither deadlock on a lock this thread holds nor
  /// take part in a lock-order cycle.
  /// - Complexity: One try-lock, plus `body` and the unlock when it succeeds.
  package func withLockIfAvailable<Result>(_ body: (inout sending Value) -> sending Result)
    -> Result?
  {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { unlock() }
    return body(&value)
  }

  private func lock() {
    let status = pthread_mutex_lock(mutex)
    precondition(status == 0, "pthread_mutex_lock failed with \(status)")
  }

  private func unlock() {
    let status = pthread_mutex_unlock(mutex)
    precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
  }
}
