import Synchronization

/// A store's snapshot file: atomic, durable replacement and checked loading.
///
/// A write goes to a temporary file in the same directory, which is flushed, renamed over the
/// file and followed by a flush of the directory, so a save that returned survives a power
/// loss and a crash never leaves a torn file: the file holds the old snapshot or the new one.
public struct SnapshotFile: Sendable {
  /// The file's path.
  public let path: String
  /// The file operations used.
  public let io: any FileIO
  /// The bytes written between two hints to the system to start writing them to the disk
  /// (``FileIO/startWriteback(_:offset:count:)``), so that the disk writes while the rest is
  /// encoded and the final sync waits for little.
  var writebackInterval = 8 << 20
  private static let counter = Atomic<Int>(0)

  /// A snapshot file at `path`, reached through `io`.
  public init(path: String, io: any FileIO = SystemFileIO()) {
    self.path = path
    self.io = io
  }

  /// The directory holding the file.
  public var directory: String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private var temporaryPrefix: String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return ".\(name).tmp-"
  }

  /// The store the file holds, or `nil` when there is no file.
  ///
  /// - Throws: ``SnapshotError`` when the path is a directory, cannot be read, or the file is
  ///   damaged. A damaged file is never treated as absent.
  public func load() throws -> StoreVersion? {
    try loadWithLineage()?.version
  }

  /// The store the file holds and its lineage, or `nil` when there is no file.
  ///
  /// - Throws: ``SnapshotError``, as ``load()``.
  public func loadWithLineage() throws -> (version: StoreVersion, lineage: SnapshotLineage)? {
    try loadWithHistory().map { ($0.version, $0.lineage) }
  }

  /// The store the file holds, its lineage and its kept history, or `nil` when there is no
  /// file.
  ///
  /// - Throws: ``SnapshotError``, as ``load()``.
  func loadWithHistory() throws -> (
    version: StoreVersion, lineage: SnapshotLineage, history: KeptHistory
  )? {
    switch io.kind(of: path) {
    case nil: return nil
    case .directory?:
      throw SnapshotError(.io, path: path, section: "open", message: "the path is a directory")
    case .other?:
      throw SnapshotError(.io, path: path, section: "open", message: "the path is not a file")
    case .file?:
      return try io.withSnapshotContents(of: path) {
        try SnapshotReader.decodeWithHistory($0, path: path)
      }
    }
  }

  /// Replaces the file with a snapshot of `version`, atomically and durably.
  ///
  /// The steps are: create a temporary file in the same directory, write it (short writes are
  /// continued; after every 8 MiB the system is asked to start writing them to the disk, so
  /// the disk works while the rest is encoded), fsync it, close it, rename it over the file,
  /// fsync the directory.
  /// - Returns: The number of bytes written.
  /// - Throws: ``SnapshotError`` naming the failed step (or ``SnapshotError/Code/valueTooLarge``
  ///   for a string or data value of 4 GiB or more). Before the rename the old file is
  ///   unchanged and the temporary file removed; when only the directory fsync fails, the file
  ///   holds the new snapshot but a power loss may still bring back the old one.
  ///
  /// The file is written as it is encoded, a few megabytes at a time, so the whole file is never
  /// held in memory.
  /// - Parameter history: The store's kept history, which the file carries to the next run;
  ///   without it the file keeps none.
  @discardableResult
  public func save(
    _ version: StoreVersion, lineage: SnapshotLineage = SnapshotLineage(),
    history: KeptHistory? = nil
  ) throws -> Int {
    var size = 0
    try replace { write in
      let file = try SnapshotWriter.write(
        version, lineage: lineage, history: history, lengthLimit: Int(UInt32.max),
        draining: true, to: write)
      if let oversized = file.oversized {
        throw SnapshotError(
          .valueTooLarge, path: path, section: "write",
          message: "a string or data value of \(oversized) bytes is longer than the format's "
            + "limit of \(UInt32.max) bytes; the file was not written")
      }
      size = file.flushed
    }
    return size
  }

  /// Replaces the file with `bytes`, atomically and durably, as ``save(_:lineage:history:)`` does.
  ///
  /// - Throws: ``SnapshotError`` naming the failed step.
  public func replace(with bytes: [UInt8]) throws {
    try replace { write in try bytes.withUnsafeBytes { try write($0) } }
  }

  /// Replaces the file with the bytes `body` hands to the function it is given, in order.
  private func replace(
    writing body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let unique = SnapshotFile.counter.wrappingAdd(1, ordering: .relaxed).oldValue
    let temporary = "\(directory)/\(temporaryPrefix)\(getpidValue())-\(unique)"
    let descriptor = try io.create(temporary)
    do {
      do {
        var written = 0
        var hinted = 0
        try body { bytes in
          try writeAll(descriptor, bytes, temporary: temporary, at: written)
          written += bytes.count
          if written - hinted >= writebackInterval {
            io.startWriteback(descriptor, offset: hinted, count: written - hinted)
            hinted = written
          }
        }
        try io.sync(descriptor)
      } catch {
        try? io.close(descriptor)
        throw error
      }
      try io.close(descriptor)
      try io.rename(temporary, path)
    } catch var error as SnapshotError {
      try? io.remove(temporary)
      if error.path.hasPrefix("fd ") { error.path = temporary }
      throw error
    } catch {
      try? io.remove(temporary)
      throw error
    }
    try io.syncDirectory(directory)
  }

  /// Writes all of `bytes`, which go at `start` of the file, continuing after short writes.
  private func writeAll(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, temporary: String, at start: Int
  ) throws {
    var offset = 0
    while offset < bytes.count {
      let written = try io.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      guard written > 0, written <= bytes.count - offset else {
        throw SnapshotError(
          .io, path: temporary, section: "write", offset: start + offset,
          message: "write(2) returned \(written) for \(bytes.count - offset) bytes")
      }
      offset += written
    }
  }

  /// Removes temporary files left by writes that a crash interrupted.
  public func removeOrphans() {
    guard let names = try? io.contents(ofDirectory: directory) else { return }
    for name in names where name.hasPrefix(temporaryPrefix) {
      try? io.remove("\(directory)/\(name)")
    }
  }
}

#if canImport(Glibc)
  import Glibc
  private func getpidValue() -> Int32 { getpid() }
#elseif canImport(Darwin)
  import Darwin
  private func getpidValue() -> Int32 { getpid() }
#endif
