import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The resident memory of this process, from `/proc/self/statm`.
package enum ResidentMemory {
  /// Returns memory the allocator holds only because it was freed (glibc keeps freed blocks
  /// resident), so W11 counts what each engine keeps, not what its load churned through. Every
  /// engine is measured the same way.
  package static func releaseFreedMemory() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
      }
    #endif
  }

  /// Resident bytes now, or `nil` where `/proc` is not available.
  package static func bytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return nil
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
