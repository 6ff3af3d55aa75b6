import Foundation
import Observation

/// Counts how often a tracking's `onChange` ran.
final class ChangeCount: @unchecked Sendable {
  // @unchecked Sendable: `count` is only reached under `lock`.
  private let lock = NSLock()
  private var count = 0

  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// Runs `read` inside `withObservationTracking` and returns the count its `onChange` bumps.
func track(_ read: () -> Void) -> ChangeCount {
  let count = ChangeCount()
  withObservationTracking(read) { count.increment() }
  return count
}
