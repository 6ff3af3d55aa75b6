extension ChunkDirectory {
  /// The blocks of a directory: the first one held inline, the others in an array.
  ///
  /// A column of up to 256 chunks (a million rows) has one block. Held in an array shared with
  /// the column's copies, it cost a save's first write to each column an array copy (an
  /// allocation, and a release of the old array when the version it was published in went)
  /// before the block itself was copied; held inline, the write copies the block alone.
  ///
  /// Two lists are the same (``isSame(as:)``) when they hold the same first block and the
  /// same array: a write replaces a shared first block and copies a shared array before it
  /// writes, so a list that wrote or grew since it was copied is never the same as its source.
  @usableFromInline
  struct BlockList {
    private var first: Block?
    private var rest: [Block] = []

    /// No blocks.
    init() {}

    /// The number of blocks.
    var count: Int { first == nil ? 0 : 1 &+ rest.count }

    /// Block `index`; setting replaces it (releasing the one it held).
    subscript(index: Int) -> Block {
      get { index == 0 ? first.unsafelyUnwrapped : rest[index &- 1] }
      set {
        if index == 0 { first = newValue } else { rest[index &- 1] = newValue }
      }
    }

    /// Adds `block` after the last one.
    mutating func append(_ block: Block) {
      if first == nil { first = block } else { rest.append(block) }
    }

    /// Whether this list holds the only reference to block `index` (and, for a block past the
    /// first, holds its array alone: a shared array is copied first).
    mutating func holdsAlone(_ index: Int) -> Bool {
      index == 0
        ? isKnownUniquelyReferenced(&first) : isKnownUniquelyReferenced(&rest[index &- 1])
    }

    /// Whether `other` holds the very same blocks: neither list wrote or grew since one was
    /// copied from the other.
    ///
    /// - Complexity: O(1).
    func isSame(as other: BlockList) -> Bool {
      first === other.first
        && rest.withUnsafeBufferPointer { mine in
          other.rest.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
    }
  }
}
