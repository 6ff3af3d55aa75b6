import Foundation
import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#endif

/// A simulated disk behind ``FileIO`` for fault-injection tests.
///
/// Each file has durable contents (what survives a power loss: the contents at its last
/// `fsync`) and volatile contents (what a reader sees now); a plain write appends, a positioned
/// write replaces bytes (growing the file with zeros). Directory entries made by `create`,
/// `rename` and `remove` are visible at once but durable only after the directory's `fsync`.
/// ``restart(powerLoss:)`` ends the simulated process (open files and locks are dropped) and,
/// with a power loss, brings every file and entry back to its durable state. Faults: a crash
/// at mutating step k (the step does not happen, except that a crashing write lands half its
/// bytes), errors injected on the nth call of an operation, short writes, and a disk capacity.
final class SimFS: FileIO, @unchecked Sendable {
  // @unchecked Sendable: every stored property is reached only under `mutex`.

  /// The operations a fault can be injected into.
  enum Operation: String, CaseIterable, Sendable {
    case read, create, write, sync, close, rename, syncDirectory, remove, lock, open, truncate
  }

  /// Thrown by every call from the crash step on, until ``restart(powerLoss:)``.
  struct Crash: Error {}

  private struct Inode {
    var durable: [UInt8] = []
    var volatile: [UInt8] = []
    var readable = true
  }

  private let mutex = NSLock()
  private var inodes: [Int: Inode] = [:]
  private var nextInode = 0
  private var entries: [String: Int] = [:]
  private var durableEntries: [String: Int] = [:]
  private var directories: Set<String> = []
  private var descriptors: [Int32: Int] = [:]
  private var nextDescriptor: Int32 = 3
  private var locks: [String: Int32] = [:]
  private var calls: [Operation: Int] = [:]
  private var injected: [Operation: (occurrence: Int, errno: Int32)] = [:]
  private var crashed = false

  /// The number of mutating steps (create, write, sync, close, rename, syncDirectory, remove)
  /// taken since the disk was made or ``resetSteps()`` was called.
  private(set) var steps = 0
  /// The step at which the simulated process crashes, if any.
  var crashStep: Int? {
    get { mutex.withLock { _crashStep } }
    set { mutex.withLock { _crashStep = newValue } }
  }
  private var _crashStep: Int?
  /// The most bytes one write call takes (a short write returns fewer than asked).
  var maximumWriteSize: Int {
    get { mutex.withLock { _maximumWriteSize } }
    set { mutex.withLock { _maximumWriteSize = newValue } }
  }
  private var _maximumWriteSize = Int.max
  /// How long each `syncData` waits (in microseconds) before it syncs, as a slow disk would.
  var syncDataDelay: UInt32 {
    get { mutex.withLock { _syncDataDelay } }
    set { mutex.withLock { _syncDataDelay = newValue } }
  }
  private var _syncDataDelay: UInt32 = 0

  /// The most bytes all files together may hold; a write beyond it fails with ENOSPC.
  var capacity: Int {
    get { mutex.withLock { _capacity } }
    set { mutex.withLock { _capacity = newValue } }
  }
  private var _capacity = Int.max

  /// A disk holding the empty directories `directories`.
  init(directories: [String] = ["/sim"]) {
    self.directories = Set(directories)
  }

  /// The number of calls of `operation` so far.
  func callCount(_ operation: Operation) -> Int { mutex.withLock { calls[operation, default: 0] } }

  /// Makes the `occurrence`th call of `operation` from now fail with `errno`.
  func inject(_ operation: Operation, errno code: Int32, occurrence: Int = 1) {
    mutex.withLock { injected[operation] = (calls[operation, default: 0] + occurrence, code) }
  }

  /// Starts counting steps from zero.
  func resetSteps() { mutex.withLock { steps = 0 } }

  /// Ends the simulated process: open files and locks are dropped, crash and injected faults
  /// cleared; with `powerLoss`, every file and directory entry falls back to its durable state.
  func restart(powerLoss: Bool) {
    mutex.withLock {
      crashed = false
      _crashStep = nil
      injected = [:]
      descriptors = [:]
      locks = [:]
      guard powerLoss else { return }
      entries = durableEntries
      for (number, inode) in inodes { inodes[number]!.volatile = inode.durable }
    }
  }

  /// Puts `bytes` at `path` as if written and synced long ago (durable, entry included).
  func place(_ bytes: [UInt8], at path: String, readable: Bool = true) {
    mutex.withLock {
      let number = newInode()
      inodes[number] = Inode(durable: bytes, volatile: bytes, readable: readable)
      entries[path] = number
      durableEntries[path] = number
    }
  }

  /// Makes a directory at `path`.
  func makeDirectory(_ path: String) { mutex.withLock { _ = directories.insert(path) } }

  /// The current contents of the file at `path`, if there is one.
  func contents(of path: String) -> [UInt8]? {
    mutex.withLock { entries[path].map { inodes[$0]!.volatile } }
  }

  /// The names of the entries of `directory` a reader sees now, sorted.
  func names(in directory: String) -> [String] {
    mutex.withLock { entries.keys.filter { parent(of: $0) == directory }.map(name(of:)).sorted() }
  }

  // MARK: FileIO

  func readFile(_ path: String) throws -> [UInt8] {
    try mutex.withLock {
      try enter(.read, path: path, mutating: false)
      guard let number = entries[path] else { throw failure(.read, path, ENOENT) }
      guard inodes[number]!.readable else { throw failure(.read, path, EACCES) }
      return inodes[number]!.volatile
    }
  }

  func kind(of path: String) -> FileKind? {
    mutex.withLock {
      if directories.contains(path) { return .directory }
      return entries[path] == nil ? nil : .file
    }
  }

  func create(_ path: String) throws -> Int32 {
    try mutex.withLock {
      try enter(.create, path: path, mutating: true)
      guard entries[path] == nil, !directories.contains(path) else {
        throw failure(.create, path, EEXIST)
      }
      guard directories.contains(parent(of: path)) else { throw failure(.create, path, ENOENT) }
      let number = newInode()
      inodes[number] = Inode()
      entries[path] = number
      let descriptor = nextDescriptor
      nextDescriptor += 1
      descriptors[descriptor] = number
      return descriptor
    }
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
    try mutex.withLock {
      let path = "fd \(descriptor)"
      if !crashed, steps == _crashStep, let number = descriptors[descriptor] {
        inodes[number]!.volatile += bytes.prefix(bytes.count / 2)
      }
      try enter(.write, path: path, mutating: true)
      guard let number = descriptors[descriptor] else { throw failure(.write, path, EBADF) }
      let used = Set(entries.values).union(descriptors.values).reduce(0) {
        $0 + max(inodes[$1]!.volatile.count, inodes[$1]!.durable.count)
      }
      let count = min(bytes.count, _maximumWriteSize, max(_capacity - used, 0))
      guard count > 0 || bytes.isEmpty else { throw failure(.write, path, ENOSPC) }
      inodes[number]!.volatile += bytes.prefix(count)
      return count
    }
  }

  func sync(_ descriptor: Int32) throws {
    try mutex.withLock {
      try enter(.sync, path: "fd \(descriptor)", mutating: true)
      guard let number = descriptors[descriptor] else {
        throw failure(.sync, "fd \(descriptor)", EBADF)
      }
      inodes[number]!.durable = inodes[number]!.volatile
    }
  }

  func close(_ descriptor: Int32) throws {
    try mutex.withLock {
      try enter(.close, path: "fd \(descriptor)", mutating: true)
      guard descriptors.removeValue(forKey: descriptor) != nil else {
        throw failure(.close, "fd \(descriptor)", EBADF)
      }
    }
  }

  func rename(_ from: String, _ to: String) throws {
    try mutex.withLock {
      try enter(.rename, path: to, mutating: true)
      guard let number = entries[from] else { throw failure(.rename, to, ENOENT) }
      guard !directories.contains(to) else { throw failure(.rename, to, EISDIR) }
      entries[from] = nil
      entries[to] = number
    }
  }

  func syncDirectory(_ path: String) throws {
    try mutex.withLock {
      try enter(.syncDirectory, path: path, mutating: true)
      guard directories.contains(path) else { throw failure(.syncDirectory, path, ENOENT) }
      durableEntries = durableEntries.filter { parent(of: $0.key) != path }
      for (name, number) in entries where parent(of: name) == path {
        durableEntries[name] = number
      }
    }
  }

  func remove(_ path: String) throws {
    try mutex.withLock {
      try enter(.remove, path: path, mutating: true)
      guard entries.removeValue(forKey: path) != nil else { throw failure(.remove, path, ENOENT) }
    }
  }

  func contents(ofDirectory path: String) throws -> [String] {
    try mutex.withLock {
      try enter(.read, path: path, mutating: false)
      guard directories.contains(path) else { throw failure(.read, path, ENOENT) }
      return entries.keys.filter { parent(of: $0) == path }.map(name(of:))
    }
  }

  func lock(_ path: String) throws -> Int32 {
    try mutex.withLock {
      try enter(.lock, path: path, mutating: false)
      guard locks[path] == nil else {
        throw SnapshotError(.locked, path: path, section: "lock", message: "held (simulated)")
      }
      let token = nextDescriptor
      nextDescriptor += 1
      locks[path] = token
      return token
    }
  }

  func unlock(_ token: Int32) {
    mutex.withLock { locks = locks.filter { $0.value != token } }
  }

  func openForWriting(_ path: String) throws -> Int32 {
    try mutex.withLock {
      try enter(.open, path: path, mutating: false)
      guard let number = entries[path] else { throw failure(.open, path, ENOENT) }
      let descriptor = nextDescriptor
      nextDescriptor += 1
      descriptors[descriptor] = number
      return descriptor
    }
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int {
    try mutex.withLock {
      let path = "fd \(descriptor)"
      func put(_ slice: UnsafeRawBufferPointer.SubSequence, _ number: Int) {
        var contents = inodes[number]!.volatile
        if contents.count < offset {
          contents += [UInt8](repeating: 0, count: offset - contents.count)
        }
        let end = offset + slice.count
        if contents.count < end { contents += [UInt8](repeating: 0, count: end - contents.count) }
        contents.replaceSubrange(offset..<end, with: slice)
        inodes[number]!.volatile = contents
      }
      if !crashed, steps == _crashStep, let number = descriptors[descriptor] {
        put(bytes.prefix(bytes.count / 2), number)
      }
      try enter(.write, path: path, mutating: true)
      guard let number = descriptors[descriptor] else { throw failure(.write, path, EBADF) }
      let used = Set(entries.values).union(descriptors.values).reduce(0) {
        $0 + max(inodes[$1]!.volatile.count, inodes[$1]!.durable.count)
      }
      let growth = max(0, offset + bytes.count - inodes[number]!.volatile.count)
      let room = max(_capacity - used, 0)
      let count = growth <= room ? min(bytes.count, _maximumWriteSize) : 0
      guard count > 0 || bytes.isEmpty else { throw failure(.write, path, ENOSPC) }
      put(bytes.prefix(count), number)
      return count
    }
  }

  func truncate(_ descriptor: Int32, to length: Int) throws {
    try mutex.withLock {
      try enter(.truncate, path: "fd \(descriptor)", mutating: true)
      guard let number = descriptors[descriptor] else {
        throw failure(.truncate, "fd \(descriptor)", EBADF)
      }
      inodes[number]!.volatile = Array(inodes[number]!.volatile.prefix(length))
    }
  }

  func syncData(_ descriptor: Int32) throws {
    let delay = mutex.withLock { _syncDataDelay }
    if delay > 0 { usleep(delay) }
    try sync(descriptor)
  }

  // MARK: Helpers (called with the mutex held)

  private func enter(_ operation: Operation, path: String, mutating: Bool) throws {
    if crashed { throw Crash() }
    if mutating {
      if steps == _crashStep {
        crashed = true
        throw Crash()
      }
      steps += 1
    }
    calls[operation, default: 0] += 1
    if let fault = injected[operation], fault.occurrence == calls[operation] {
      injected[operation] = nil
      throw failure(operation, path, fault.errno)
    }
  }

  private func failure(_ operation: Operation, _ path: String, _ code: Int32) -> SnapshotError {
    let sections: [Operation: String] = [
      .sync: "fsync", .syncDirectory: "fsync directory", .remove: "unlink",
    ]
    return SnapshotError(
      .io, path: path, section: sections[operation] ?? operation.rawValue,
      message: "\(String(cString: strerror(code))) (errno \(code))")
  }

  private func newInode() -> Int {
    nextInode += 1
    return nextInode
  }

  private func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private func name(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
