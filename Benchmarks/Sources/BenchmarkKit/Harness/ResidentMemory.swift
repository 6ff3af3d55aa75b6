import Foundation

#if canImport(Glibc)
  import CMallocInfo
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

  /// Bytes the C allocator has handed out and not had back (glibc's `mallinfo2`: arena blocks
  /// in use plus mapped blocks), or `nil` where that is not available (another allocator).
  ///
  /// Unlike resident memory, this does not count freed blocks the allocator keeps, so the two
  /// together tell what an engine keeps from what its load churned through.
  package static func heapBytesInUse() -> Int? {
    #if canImport(Glibc)
      // With jemalloc linked in, glibc's arenas are not where the engine allocates.
      if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") != nil { return nil }
      let used = Int(modelgraph_heap_bytes_in_use())
      return used > 0 ? used : nil
    #else
      return nil
    #endif
  }
}
