/// The rows of one chunk still in the running while a condition is evaluated column by column.
///
/// Holds offsets inside the chunk, ascending; conditions narrow it in place. One selection is
/// reused for every chunk of a scan, so a scan allocates nothing per chunk.
final class RowSelection {
  /// Offsets inside the chunk, ascending; the first ``count`` are valid.
  let offsets: UnsafeMutablePointer<Int32>
  /// The number of valid offsets.
  var count = 0
  /// The first row of the chunk.
  var chunkStart = 0

  init() {
    offsets = .allocate(capacity: 1 << AnyColumn.chunkShift)
  }

  deinit { offsets.deallocate() }

  /// Selects the live rows of a chunk of row stamps.
  @inline(__always)
  func selectLive(_ stamps: UnsafeBufferPointer<UInt32>, chunkStart: Int) {
    self.chunkStart = chunkStart
    var kept = 0
    for index in stamps.indices {
      offsets[kept] = Int32(truncatingIfNeeded: index)
      kept &+= Int(stamps[index] & 1)
    }
    count = kept
  }

  /// Keeps the offsets for which `isKept` is true, in order.
  @inline(__always)
  func keep(where isKept: (Int) -> Bool) {
    var kept = 0
    for position in 0..<count {
      let offset = offsets[position]
      offsets[kept] = offset
      if isKept(Int(offset)) { kept &+= 1 }
    }
    count = kept
  }

  /// Keeps the rows (absolute) for which `isKept` is true, in order.
  @inline(__always)
  func keepRows(where isKept: (Int) -> Bool) {
    let start = chunkStart
    keep { isKept(start &+ $0) }
  }

  /// Calls `body` with each selected row (absolute), in order; stops when it returns `false`.
  @inline(__always)
  func forEachRow(_ body: (Int) throws -> Bool) rethrows -> Bool {
    for position in 0..<count where try !body(chunkStart &+ Int(offsets[position])) {
      return false
    }
    return true
  }
}
