import Synchronization

/// A reference set at most once, by the first thread that sets it, and read without a lock.
///
/// Not `AtomicLazyReference`: its loads and stores are compiled in the toolchain's library, so
/// each load looked its generic metadata up in the runtime (about 2 % of a W12 transaction,
/// through the index shelves of the tables a save wrote), and ThreadSanitizer sees no ordering
/// in them (it reported the fields of what they publish as a race).
struct OnceReference<Instance: AnyObject>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the reference is set once, by a compare-and-exchange that releases
  // what its maker wrote, and read by acquiring loads; the owner shares only Sendable types.
  private let stored = Atomic<Unmanaged<Instance>?>(nil)

  /// A reference not set yet.
  init() {}

  deinit { stored.load(ordering: .acquiring)?.release() }

  /// The reference, once set.
  var value: Instance? { stored.load(ordering: .acquiring)?.takeUnretainedValue() }

  /// The reference: the one set already, else the one `make` makes (or the one another thread
  /// set meanwhile, and `make`'s is dropped).
  func value(_ make: () -> Instance) -> Instance {
    if let found = stored.load(ordering: .acquiring) { return found.takeUnretainedValue() }
    let new = Unmanaged.passRetained(make())
    let (exchanged, found) = stored.compareExchange(
      expected: nil, desired: new, ordering: .acquiringAndReleasing)
    guard !exchanged, let found else { return new.takeUnretainedValue() }
    new.release()
    return found.takeUnretainedValue()
  }
}
