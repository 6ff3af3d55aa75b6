package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file the way a store saves: to a temporary file, flushed to disk, renamed over the
/// old one.
package enum DurableFile {
  /// Replaces the file at `path` with `data` atomically and durably.
  ///
  /// - Throws: ``BenchmarkError`` naming the failed step.
  package static func write(_ data: Data, to path: String) throws {
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary)
    else {
      throw BenchmarkError("cannot open \(temporary)")
    }
    try handle.write(contentsOf: data)
    try handle.synchronize()
    try handle.close()
    guard rename(temporary, path) == 0 else {
      throw BenchmarkError("cannot rename \(temporary): errno \(errno)")
    }
  }

  /// The size of the file at `path`, in bytes.
  package static func size(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
  }

  /// Removes the file at `path` if it exists.
  package static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
