import Foundation

/// Sort comparators of string attributes over their UTF-8 arenas (``StringColumnStorage``):
/// rows that are both simple ASCII compare their bytes (where byte order is `String`'s order);
/// other rows compare as decoded strings.
enum StringOrdering {
  /// The comparator of a sort key that reads a `String` or `String?` attribute of the sorted
  /// object in every table (`values[t]` for table `t`); `nil` sorts first ascending and last
  /// descending. `nil` when some table's key is not such an attribute.
  static func comparator(_ values: [CompiledValue], ascending: Bool)
    -> ((RowReference, RowReference) -> Int)?
  {
    var storages: [StringColumnStorage] = []
    for value in values {
      guard case .string(let function) = value, let column = function.column else { return nil }
      let strings: StringColumnStorage?
      switch column {
      case .plain(let column): strings = column.strings
      case .optional(let column): strings = column.strings
      }
      guard let strings else { return nil }
      storages.append(strings)
    }
    let sign = ascending ? 1 : -1
    let columns = SortedStrings(storages)
    return { a, b in
      // The chunks are read unretained (the storages keep them): a comparison takes no
      // reference count.
      let x = columns.chunk(a)
      let y = columns.chunk(b)
      let xRow = a.row & AnyColumn.chunkMask
      let yRow = b.row & AnyColumn.chunkMask
      return x._withUnsafeGuaranteedRef { x in
        y._withUnsafeGuaranteedRef { y in
          switch (x.isNil(xRow), y.isNil(yRow)) {
          case (true, true): return 0
          case (true, false): return -sign
          case (false, true): return sign
          case (false, false): return sign * compare(x, xRow, y, yRow)
          }
        }
      }
    }
  }

  /// -1, 0 or 1 as row `xRow` of `x` is before, equal to or after row `yRow` of `y` by `<`.
  @inline(__always)
  static func compare(_ x: StringChunk, _ xRow: Int, _ y: StringChunk, _ yRow: Int) -> Int {
    if x.isSimple(xRow) && y.isSimple(yRow) {
      let (xStart, xCount) = x.span(xRow)
      let (yStart, yCount) = y.span(yRow)
      return compareBytes(x.bytes + xStart, xCount, y.bytes + yStart, yCount)
    }
    return compareStrings(x.string(xRow), y.string(yRow))
  }

  /// -1, 0 or 1 as the `xCount` bytes at `x` are before, equal to or after the `yCount` bytes
  /// at `y`: byte by byte, then the shorter first (`String`'s order for ASCII without `\r`).
  @inline(__always)
  static func compareBytes(
    _ x: UnsafePointer<UInt8>, _ xCount: Int, _ y: UnsafePointer<UInt8>, _ yCount: Int
  ) -> Int {
    let order = memcmp(x, y, min(xCount, yCount))
    if order != 0 { return order < 0 ? -1 : 1 }
    return xCount < yCount ? -1 : xCount > yCount ? 1 : 0
  }

  /// -1, 0 or 1 as `x` is before, equal to or after `y` by `String`'s `<`.
  @inline(__always)
  static func compareStrings(_ x: String, _ y: String) -> Int {
    x < y ? -1 : y < x ? 1 : 0
  }
}

/// The string storages a sort key reads, one per table of the plan, kept alive with unretained
/// references to read them by.
private final class SortedStrings {
  /// Keeps the storages (and so their chunks) alive for the comparator's life.
  private let storages: [StringColumnStorage]
  /// ``storages``, unretained.
  private let references: UnsafeMutablePointer<Unmanaged<StringColumnStorage>>

  init(_ storages: [StringColumnStorage]) {
    self.storages = storages
    references = .allocate(capacity: max(storages.count, 1))
    for (position, storage) in storages.enumerated() {
      (references + position).initialize(to: .passUnretained(storage))
    }
  }

  deinit { references.deallocate() }

  /// The chunk holding `reference`'s row, unretained.
  @inline(__always)
  func chunk(_ reference: RowReference) -> Unmanaged<StringChunk> {
    references[reference.table]._withUnsafeGuaranteedRef {
      $0.chunkReference(reference.row &>> AnyColumn.chunkShift)
    }
  }
}
