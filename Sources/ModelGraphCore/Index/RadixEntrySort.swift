/// Orders an ordered index's entries by key, then row, with a radix sort of 64-bit sort keys
/// (``IndexKey/radixKey(_:)``) where the key type has them: numbers and dates.
///
/// An index build over a table's live rows sorted its entries with the standard library's
/// merge sort through a comparison closure, about 400 instructions an entry for a `Date`
/// column of 33,000 rows; the radix sort takes a few dozen, one counting and one moving pass
/// for each byte in which the keys differ.
enum RadixEntrySort {
  /// Below this count the comparison sort is as fast.
  static let threshold = 256

  /// A sort key and the position of its entry in the input.
  struct Item {
    var key: UInt64
    var position: UInt32
  }

  /// The positions of `entries` in index order: by key (``IndexKey/precedes(_:_:)``), then by
  /// row. Only for key types with radix keys (``IndexKey/hasRadixKey``).
  ///
  /// - Complexity: O(n × bytes in which the keys differ), plus the same for the rows when
  ///   `entries` is not in row order.
  static func order<Key: IndexKey>(_ entries: [(key: Key, row: Int32)]) -> [Int] {
    var items = [Item](unsafeUninitializedCapacity: entries.count) { buffer, initialized in
      var rowOrdered = true
      var previous = Int32.min
      for (position, entry) in entries.enumerated() {
        if entry.row < previous { rowOrdered = false }
        previous = entry.row
        buffer[position] = Item(
          key: UInt64(UInt32(bitPattern: entry.row)), position: UInt32(position))
      }
      initialized = entries.count
      // Entries from a column come in row order; others are first put in row order, so
      // that the stable sort by key leaves equal keys by row.
      if !rowOrdered { sort(buffer) }
    }
    items.withUnsafeMutableBufferPointer { items in
      for index in items.indices {
        items[index].key = Key.radixKey(entries[Int(items[index].position)].key)
      }
      sort(items)
    }
    return items.map { Int($0.position) }
  }

  /// Sorts `items` ascending by key; items with equal keys keep their order.
  static func sort(_ items: UnsafeMutableBufferPointer<Item>) {
    RadixSort.sort(items) { $0.key }
  }
}

/// A least-significant-digit radix sort of 64-bit keys, one byte a pass, for the sorts that a
/// comparison closure made slow (index entries, a save's freed rows).
enum RadixSort {
  /// Sorts `items` ascending by `key`; items with equal keys keep their order. A byte in which
  /// every key agrees takes no pass.
  ///
  /// - Complexity: O(n × bytes in which the keys differ).
  @inline(__always)
  static func sort<Element>(
    _ items: UnsafeMutableBufferPointer<Element>, key: (Element) -> UInt64
  ) {
    guard let first = items.first.map(key) else { return }
    var varying: UInt64 = 0
    for item in items { varying |= key(item) ^ first }
    guard varying != 0 else { return }
    let scratch = UnsafeMutableBufferPointer<Element>.allocate(capacity: items.count)
    defer { scratch.deallocate() }
    _ = scratch.initialize(from: items)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
      var (source, target) = (items, scratch)
      var shift: UInt64 = 0
      while shift < 64 {
        defer { shift += 8 }
        guard (varying &>> shift) & 0xFF != 0 else { continue }
        counts.initialize(repeating: 0)
        for item in source { counts[Int(truncatingIfNeeded: key(item) &>> shift) & 0xFF] += 1 }
        var start = 0
        for digit in 0..<256 {
          let count = counts[digit]
          counts[digit] = start
          start += count
        }
        for item in source {
          let digit = Int(truncatingIfNeeded: key(item) &>> shift) & 0xFF
          target[counts[digit]] = item
          counts[digit] += 1
        }
        swap(&source, &target)
      }
      // After an odd number of passes the order is in the scratch buffer.
      if source.baseAddress != items.baseAddress {
        _ = items.update(fromContentsOf: source)
      }
    }
  }
}
