import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process-wide cache of facts that never change once computed (class layouts, key-path
/// resolutions, index declarations), read without any lock.
///
/// Each thread reads its own copy of the entries it has used; a miss consults the shared
/// entries under a lock and copies the answer into the thread's copy. Threads therefore never
/// contend on a hit, which is every lookup after the first in a thread. A value computed twice
/// by racing threads is kept once (the first stored wins), so `make` must be deterministic.
final class ThreadCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: `shared` is a lock; `key` is written once in init; each thread's
  // `Local` is reached only through pthread_getspecific on that thread.

  private final class Local {
    // Reached from one thread only, so no dynamic exclusivity check is needed.
    @exclusivity(unchecked) var entries: [Key: Value] = [:]
    /// The last few keys answered and their values: lookups that keep to a few keys (the
    /// classes of a deep fetch's objects, met in any order) skip hashing.
    @exclusivity(unchecked) var recent: [(key: Key, value: Value)] = []
    /// The place in ``recent`` the next key answered takes once it is full.
    @exclusivity(unchecked) var nextRecent = 0

    /// The value of `key` among the recent answers, if there.
    @inline(__always)
    func recentValue(for key: Key) -> Value? {
      for index in recent.indices where recent[index].key == key { return recent[index].value }
      return nil
    }

    /// Records `key`'s value among the recent answers, in place of the oldest once full.
    func remember(_ key: Key, _ value: Value) {
      if recent.count < ThreadCache.recentCount {
        recent.append((key, value))
      } else {
        recent[nextRecent] = (key, value)
        nextRecent = (nextRecent + 1) % ThreadCache.recentCount
      }
    }
  }

  /// The number of recent answers each thread keeps beside its entries.
  static var recentCount: Int { 4 }

  private let shared = Locked<[Key: Value]>([:])
  private let key: pthread_key_t

  /// An empty cache.
  init() {
    var key = pthread_key_t()
    #if canImport(Glibc)
      let status = pthread_key_create(&key) { pointer in
        // The thread ended: release its copy.
        guard let pointer else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
      }
    #else
      let status = pthread_key_create(&key) { pointer in
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
      }
    #endif
    require(status == 0, "pthread_key_create failed with \(status)")
    self.key = key
  }

  deinit {
    // Copies of threads still running stay until they exit; only the key goes.
    pthread_key_delete(key)
  }

  /// The value cached for `key`, or the one `make` computes (outside any lock, so `make` may
  /// itself consult this cache).
  ///
  /// - Complexity: One thread-local read and one hash lookup on a hit; no hashing when the
  ///   key is among the thread's last few (``recentCount``) answers.
  func value(for key: Key, make: () throws -> Value) rethrows -> Value {
    // The thread's copy lives until the thread ends: read it without a retain and release.
    let hit = localCopy()._withUnsafeGuaranteedRef { local -> Value? in
      if let value = local.recentValue(for: key) { return value }
      guard let value = local.entries[key] else { return nil }
      local.remember(key, value)
      return value
    }
    if let hit { return hit }
    let local = localCopy().takeUnretainedValue()
    let value: Value
    if let found = shared.withLock({ $0[key] }) {
      value = found
    } else {
      let made = try make()
      value = shared.withLock { entries in
        if let first = entries[key] { return first }
        entries[key] = made
        return made
      }
    }
    local.entries[key] = value
    local.remember(key, value)
    return value
  }

  private func localCopy() -> Unmanaged<Local> {
    if let pointer = pthread_getspecific(key) { return Unmanaged<Local>.fromOpaque(pointer) }
    let local = Unmanaged.passRetained(Local())
    let status = pthread_setspecific(key, local.toOpaque())
    require(status == 0, "pthread_setspecific failed with \(status)")
    return local
  }
}
