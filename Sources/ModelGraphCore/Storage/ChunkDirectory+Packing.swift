/// A copy of one chunk, made to replace it (``ChunkDirectory/packedCopies(of:clone:)``).
struct PackedChunk {
  /// The chunk's index.
  var index: Int
  /// The copy.
  var chunk: AnyObject
  /// The copy's storage address.
  var address: UnsafeMutableRawPointer
}

/// Copies of some chunks of a directory and of the groups that hold them, made one after
/// another, to install in place of the originals (``ChunkDirectory/install(_:)``).
struct PackedChunks {
  /// The chunk copies, by ascending index.
  var chunks: [PackedChunk] = []
  /// For each group holding a copied chunk: its index and a new group holding the copies.
  var groups: [(index: Int, group: ChunkDirectory.Group)] = []

  /// Whether there is nothing to install.
  var isEmpty: Bool { chunks.isEmpty }
}

extension ChunkDirectory {
  /// The chunks from index `first` on that this directory holds alone, when there are at
  /// least `minimum` of them; else none.
  ///
  /// - Complexity: O(chunks past `first`).
  func ownedChunks(from first: Int, minimum: Int) -> [Int] {
    let owned = (min(first, count)..<count).filter(owns)
    return owned.count >= minimum ? owned : []
  }

  /// Copies of the chunks at `indices` (ascending, held alone: see
  /// ``ownedChunks(from:minimum:)``), made by `clone`, and of the groups holding them, to
  /// ``install(_:)`` later. Releases nothing.
  func packedCopies(
    of indices: [Int], clone: (AnyObject) -> (chunk: AnyObject, address: UnsafeMutableRawPointer)
  ) -> PackedChunks {
    var packed = PackedChunks()
    packed.chunks = indices.map { index in
      let copy = clone(chunk(index))
      return PackedChunk(index: index, chunk: copy.chunk, address: copy.address)
    }
    for copy in packed.chunks {
      let group = copy.index &>> Self.groupShift
      if packed.groups.last?.index != group {
        let original = blocks[group &>> Self.blockShift].group(group & (Self.blockSize - 1))
        packed.groups.append((group, Group.make(copying: original)))
      }
      packed.groups[packed.groups.count - 1].group.replace(
        copy.index & (Self.groupSize - 1), with: copy.chunk)
    }
    return packed
  }

  /// Puts the copies in place of their chunks and groups (which this directory still holds
  /// alone), releasing those they replace.
  ///
  /// - Complexity: O(copies).
  mutating func install(_ packed: PackedChunks) {
    for copy in packed.chunks {
      precondition(copy.index < count && owns(copy.index), "chunk \(copy.index) is shared")
      blocks[copy.index &>> (Self.groupShift + Self.blockShift)]
        .addresses[copy.index & (Self.chunksPerBlock - 1)] = copy.address
    }
    for (index, group) in packed.groups {
      blocks[index &>> Self.blockShift].replace(index & (Self.blockSize - 1), with: group)
    }
  }
}
