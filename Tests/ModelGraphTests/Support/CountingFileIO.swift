import Foundation
import ModelGraphCore
import Synchronization

/// The real file system, counting the journal's data syncs and record writes; a sync can be
/// held until the test releases it, so a test decides what is appended while it runs.
struct CountingFileIO: ForwardingFileIO {
  final class Counter: Sendable {
    let syncs = Atomic<Int>(0)
    /// Positional writes that hold a non-zero byte: the journal's records (the zeros it
    /// writes ahead hold none).
    let records = Atomic<Int>(0)
    /// Whether the next data sync waits for `release` (after signalling `entered`).
    let holdsNextSync = Atomic<Bool>(false)
    /// The thread of each data sync, in order.
    let syncThreads = Mutex<[pthread_t]>([])
    /// Whether the held sync fails (EIO) once released.
    let failsHeldSync = Atomic<Bool>(false)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
  }

  let base = SystemFileIO()
  let counter = Counter()

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
    let written = try base.write(descriptor, bytes, at: offset)
    if bytes.contains(where: { $0 != 0 }) { counter.records.add(1, ordering: .relaxed) }
    return written
  }
  func syncData(_ descriptor: Int32) throws {
    counter.syncs.add(1, ordering: .relaxed)
    counter.syncThreads.withLock { $0.append(pthread_self()) }
    if counter.holdsNextSync.exchange(false, ordering: .acquiringAndReleasing) {
      counter.entered.signal()
      counter.release.wait()
      if counter.failsHeldSync.load(ordering: .acquiring) {
        throw SnapshotError(
          .io, path: "journal", section: "sync", message: "injected EIO on fdatasync")
      }
    }
    try base.syncData(descriptor)
  }
}
