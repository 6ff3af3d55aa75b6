#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A monotonic clock read in nanoseconds.
package enum Stopwatch {
  /// Nanoseconds on the monotonic clock.
  @inline(__always)
  package static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }

  /// Nanoseconds of CPU time (user and system) the process used, on all its threads.
  package static func processCPU() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }

  /// Seconds taken by `body`, and what it returned.
  @inline(__always)
  package static func time<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    let start = now()
    let value = try body()
    let end = now()
    return (Double(end &- start) / 1e9, value)
  }
}
