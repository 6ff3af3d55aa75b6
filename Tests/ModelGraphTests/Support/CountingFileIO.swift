import Foundation
import ModelGraphCore
import Synchronization

/// The real file system, counting the journal's data syncs and record writes; a sync can be
/// held until the test releases it, so a test decides what is appended while it runs.
struct CountingFileIO: FileIO {
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

  let system = SystemFileIO()
  let counter = Counter()

  func readFile(_ path: String) throws -> [UInt8] { try system.readFile(path) }
  func kind(of path: String) -> FileKind? { system.kind(of: path) }
  func create(_ path: String) throws -> Int32 { try system.create(path) }
  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
    try system.write(descriptor, bytes)
  }
  func sync(_ descriptor: Int32) throws { try system.sync(descriptor) }
  func close(_ descriptor: Int32) throws { try system.close(descriptor) }
  func rename(_ from: String, _ to: String) throws { try system.rename(from, to) }
  func syncDirectory(_ path: String) throws { try system.syncDirectory(path) }
  func remove(_ path: String) throws { try system.remove(path) }
  func contents(ofDirectory path: String) throws -> [String] {
    try system.contents(ofDirectory: path)
  }
  func lock(_ path: String) throws -> Int32 { try system.lock(path) }
  func unlock(_ token: Int32) { system.unlock(token) }
  func openForWriting(_ path: String) throws -> Int32 { try system.openForWriting(path) }
  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
    let written = try system.write(descriptor, bytes, at: offset)
    if bytes.contains(where: { $0 != 0 }) { counter.records.add(1, ordering: .relaxed) }
    return written
  }
  func truncate(_ descriptor: Int32, to length: Int) throws {
    try system.truncate(descriptor, to: length)
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
    try system.syncData(descriptor)
  }
}
