#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at a path.
public enum FileKind: Sendable, Hashable {
  /// A regular file.
  case file
  /// A directory.
  case directory
  /// Something else (a socket, a device).
  case other
}

/// The file operations snapshots use, one call per system call, so tests can inject faults
/// (a failed write, a full disk, a crash between two steps, a power loss).
public protocol FileIO: Sendable {
  /// The whole contents of a regular file, read with read(2) (never mapped).
  func readFile(_ path: String) throws -> [UInt8]
  /// Calls `body` with the whole contents of a file that nothing changes in place while
  /// `body` runs: a snapshot (only ever replaced by a rename), or a journal whose files' lock
  /// the caller holds; the bytes are valid only during `body`.
  ///
  /// ``SystemFileIO`` maps the file instead of copying it; by default this reads it with
  /// ``readFile(_:)``.
  func withSnapshotContents<Result>(
    of path: String, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result
  /// What is at `path`, or `nil` when nothing is.
  func kind(of path: String) -> FileKind?
  /// Creates a new file for writing; fails if it exists.
  func create(_ path: String) throws -> Int32
  /// Writes a prefix of `bytes` with one write(2) call.
  ///
  /// - Returns: The number of bytes written, which may be fewer than `bytes.count` (a short
  ///   write); callers write the rest with further calls.
  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int
  /// Flushes a file's data to the disk.
  func sync(_ descriptor: Int32) throws
  /// Closes a file.
  func close(_ descriptor: Int32) throws
  /// Renames `from` over `to`, atomically.
  func rename(_ from: String, _ to: String) throws
  /// Flushes a directory (so a rename in it survives a power loss).
  func syncDirectory(_ path: String) throws
  /// Removes a file.
  func remove(_ path: String) throws
  /// The names of the entries of a directory.
  func contents(ofDirectory path: String) throws -> [String]
  /// Takes an exclusive lock on `path` (created if needed) without waiting.
  ///
  /// - Returns: A token to pass to ``unlock(_:)``.
  /// - Throws: ``SnapshotError`` with code ``SnapshotError/Code/locked`` when another holder has it.
  func lock(_ path: String) throws -> Int32
  /// Releases a lock taken with ``lock(_:)``.
  func unlock(_ token: Int32)
  /// Opens an existing file for positioned writes (``write(_:_:at:)``).
  func openForWriting(_ path: String) throws -> Int32
  /// Writes a prefix of `bytes` at byte `offset` of the file with one pwrite(2) call (a file
  /// shorter than `offset` grows with zeros).
  ///
  /// - Returns: The number of bytes written, which may be fewer than `bytes.count`.
  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws -> Int
  /// Cuts a file opened for writing to its first `length` bytes.
  func truncate(_ descriptor: Int32, to length: Int) throws
  /// Flushes a file's data (and the size that reaches it) to the disk, like fdatasync(2).
  func syncData(_ descriptor: Int32) throws
  /// Asks the system to start writing `count` bytes of a file being written, from byte
  /// `offset`, to the disk, without waiting for them: a hint, so that the ``sync(_:)`` that
  /// follows has less left to wait for. It makes nothing durable, and may do nothing.
  func startWriteback(_ descriptor: Int32, offset: Int, count: Int)
}

extension FileIO {
  /// Reads the file with ``readFile(_:)`` and calls `body` with its bytes.
  public func withSnapshotContents<Result>(
    of path: String, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result {
    try readFile(path).withUnsafeBytes(body)
  }

  /// Unsupported unless a conformance provides it: throws ``SnapshotError/Code/io``.
  public func openForWriting(_ path: String) throws -> Int32 {
    throw SnapshotError(.io, path: path, section: "open", message: "not supported")
  }

  /// Unsupported unless a conformance provides it: throws ``SnapshotError/Code/io``.
  public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws
    -> Int
  {
    throw SnapshotError(.io, path: "fd \(descriptor)", section: "pwrite", message: "not supported")
  }

  /// Unsupported unless a conformance provides it: throws ``SnapshotError/Code/io``.
  public func truncate(_ descriptor: Int32, to length: Int) throws {
    throw SnapshotError(
      .io, path: "fd \(descriptor)", section: "ftruncate", message: "not supported")
  }

  /// ``sync(_:)``, unless a conformance has a cheaper data-only flush.
  public func syncData(_ descriptor: Int32) throws { try sync(descriptor) }

  /// Does nothing, unless a conformance can start a writeback early.
  public func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {}
}

/// The operating system's files, through POSIX calls.
public struct SystemFileIO: FileIO {
  /// The real file system.
  public init() {}

  private func failure(_ operation: String, _ path: String) -> SnapshotError {
    let code = errno
    return SnapshotError(
      .io, path: path, section: operation,
      message: "\(String(cString: strerror(code))) (errno \(code))")
  }

  public func readFile(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("open", path) }
    defer { _ = Glibc.close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure("fstat", path) }
    // Read the size stat reports straight into the array, then whatever a writer appended.
    let size = max(Int(info.st_size), 0)
    // An empty file starts from `[]`: an uninitialized capacity of 0 writes its count into the
    // storage every empty array shares, a write that races with other threads' reads.
    var bytes: [UInt8] = []
    if size > 0 {
      bytes = try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = 0
        while count < size {
          let read = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
          if read < 0 {
            if errno == EINTR { continue }
            throw failure("read", path)
          }
          if read == 0 { break }
          count += read
        }
      }
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("read", path)
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: buffer[0..<count])
    }
  }

  /// Maps the file read-only, so the bytes are neither copied nor held twice; a file that
  /// cannot be mapped is read with ``readFile(_:)``.
  ///
  /// The pages are not mapped in up front (`MAP_POPULATE` would map every page on this thread
  /// before `body` starts): the kernel is asked to read the file ahead (`MADV_WILLNEED`), and
  /// each page is mapped when first read, by whichever thread reads it (a large snapshot's
  /// column blocks are checked on several threads).
  public func withSnapshotContents<Result>(
    of path: String, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("open", path) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let error = failure("fstat", path)
      _ = Glibc.close(descriptor)
      throw error
    }
    let size = Int(info.st_size)
    let mapped = size > 0 ? mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0) : nil
    _ = Glibc.close(descriptor)
    guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
      return try readFile(path).withUnsafeBytes(body)
    }
    // Only advice: a failure changes nothing but speed.
    _ = madvise(mapped, size, MADV_WILLNEED)
    defer { munmap(mapped, size) }
    return try body(UnsafeRawBufferPointer(start: mapped, count: size))
  }

  public func kind(of path: String) -> FileKind? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  public func create(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("create", path) }
    return descriptor
  }

  public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    while true {
      let written = Glibc.write(descriptor, base, bytes.count)
      if written >= 0 { return written }
      if errno != EINTR { throw failure("write", "fd \(descriptor)") }
    }
  }

  public func sync(_ descriptor: Int32) throws {
    guard fsync(descriptor) == 0 else { throw failure("fsync", "fd \(descriptor)") }
  }

  /// Starts the writeback with sync_file_range(2) and `SYNC_FILE_RANGE_WRITE` on Linux (looked
  /// up at run time: Glibc's module does not declare it); elsewhere does nothing. A failure is
  /// ignored: the sync that follows reports what matters.
  public func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
    guard let call = SyncFileRange.function, count > 0 else { return }
    _ = call(descriptor, Int64(offset), Int64(count), SyncFileRange.write)
  }

  public func close(_ descriptor: Int32) throws {
    guard Glibc.close(descriptor) == 0 else { throw failure("close", "fd \(descriptor)") }
  }

  public func rename(_ from: String, _ to: String) throws {
    guard Glibc.rename(from, to) == 0 else { throw failure("rename", to) }
  }

  public func syncDirectory(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("open directory", path) }
    defer { _ = Glibc.close(descriptor) }
    guard fsync(descriptor) == 0 else { throw failure("fsync directory", path) }
  }

  public func remove(_ path: String) throws {
    guard unlink(path) == 0 else { throw failure("unlink", path) }
  }

  public func contents(ofDirectory path: String) throws -> [String] {
    guard let directory = opendir(path) else { throw failure("opendir", path) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  public func lock(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("open lock file", path) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      _ = Glibc.close(descriptor)
      if code == EWOULDBLOCK {
        throw SnapshotError(
          .locked, path: path, section: "lock",
          message: "the store is in use by another process (or another container)")
      }
      errno = code
      throw failure("flock", path)
    }
    return descriptor
  }

  public func unlock(_ token: Int32) {
    _ = flock(token, LOCK_UN)
    _ = Glibc.close(token)
  }

  public func openForWriting(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure("open", path) }
    return descriptor
  }

  public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws
    -> Int
  {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    while true {
      let written = pwrite(descriptor, base, bytes.count, off_t(offset))
      if written >= 0 { return written }
      if errno != EINTR { throw failure("pwrite", "fd \(descriptor)") }
    }
  }

  public func truncate(_ descriptor: Int32, to length: Int) throws {
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      throw failure("ftruncate", "fd \(descriptor)")
    }
  }

  public func syncData(_ descriptor: Int32) throws {
    #if canImport(Glibc)
      guard fdatasync(descriptor) == 0 else { throw failure("fdatasync", "fd \(descriptor)") }
    #else
      try sync(descriptor)
    #endif
  }
}

/// Linux's sync_file_range(2), found in the C library when the process starts using it.
private enum SyncFileRange {
  typealias Function = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
  /// `SYNC_FILE_RANGE_WRITE`: start writing the range's dirty pages, without waiting.
  static let write: UInt32 = 2
  /// The function, or `nil` where the system has none.
  static var function: Function? { lookup.function }
  private static let lookup = Lookup()

  /// The looked-up address, immutable once made.
  private struct Lookup: @unchecked Sendable {
    // @unchecked Sendable: a C function pointer, set once and only called.
    let function: Function?

    init() {
      #if os(Linux)
        guard let address = dlsym(dlopen(nil, RTLD_NOW), "sync_file_range") else {
          function = nil
          return
        }
        function = unsafeBitCast(address, to: Function.self)
      #else
        function = nil
      #endif
    }
  }
}
