/// A ``FileIO`` that passes every operation to ``base``, so a wrapper (a test's fault
/// injector, a counter) implements only the operations it changes.
///
/// Whole-file reads stay on ``FileIO``'s default: ``FileIO/withSnapshotContents(of:_:)`` reads
/// through the wrapper's own ``FileIO/readFile(_:)``, so a wrapper that changes `readFile`
/// changes every read. A wrapper that wants the base's mapping implements it itself.
package protocol ForwardingFileIO: FileIO {
  /// The file operations' type that this one passes to.
  associatedtype Base: FileIO
  /// The files that every operation this type does not implement goes to.
  var base: Base { get }
}

extension ForwardingFileIO {
  package func readFile(_ path: String) throws -> [UInt8] { try base.readFile(path) }
  package func kind(of path: String) -> FileKind? { base.kind(of: path) }
  package func create(_ path: String) throws -> Int32 { try base.create(path) }
  package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
    try base.write(descriptor, bytes)
  }
  package func sync(_ descriptor: Int32) throws { try base.sync(descriptor) }
  package func close(_ descriptor: Int32) throws { try base.close(descriptor) }
  package func rename(_ from: String, _ to: String) throws { try base.rename(from, to) }
  package func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
  package func remove(_ path: String) throws { try base.remove(path) }
  package func contents(ofDirectory path: String) throws -> [String] {
    try base.contents(ofDirectory: path)
  }
  package func lock(_ path: String) throws -> Int32 { try base.lock(path) }
  package func unlock(_ token: Int32) { base.unlock(token) }
  package func openForWriting(_ path: String) throws -> Int32 { try base.openForWriting(path) }
  package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws
    -> Int
  { try base.write(descriptor, bytes, at: offset) }
  package func truncate(_ descriptor: Int32, to length: Int) throws {
    try base.truncate(descriptor, to: length)
  }
  package func syncData(_ descriptor: Int32) throws { try base.syncData(descriptor) }
  package func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
    base.startWriteback(descriptor, offset: offset, count: count)
  }
}
