/// The owning references of a column's chunks, in a tree that column copies share and copy on
/// write: groups of 16 chunks, gathered in blocks of 16 groups.
///
/// Copying a column (a session's working copy of a committed table) is O(1), and its first
/// write to a chunk copies only the path to it: one block (16 groups) and one group (16
/// chunks), each a reference count per entry, and for a chunk past the first 256 the list of
/// the blocks after the first (one per 256 chunks; see ``BlockList``). A small save on a
/// large store then touches a few dozen references per column it writes, whatever the store's
/// size: a million rows (977 chunks) take at most 3 + 16 + 16, where one level of 64-chunk
/// groups took 16 + 64. A bit per chunk records which chunks this directory holds alone, so a
/// write to a chunk already copied tests one bit.
///
/// The directory also keeps each chunk's storage address, for reads that take no reference
/// count: a page of 256 addresses per block, in the block's own allocation and copied with it,
/// and one list of page addresses per directory (one entry per 256 chunks). Copying a column then
/// copies no address per chunk: a million rows take 4 page addresses, where a flat list per
/// column took 977 chunk addresses, so a save's publish costs O(columns written × blocks), and
/// its first write to a block copies one page (2 KiB).
///
/// The owner calls ``deallocate()`` once, in its `deinit`. A table is frozen (``freeze()``)
/// before it is published, so that copying a published column writes nothing to it.
///
/// A directory that owns no chunk alone (a copy that has not written yet, a frozen one) reads
/// its ownership bits from one shared block of zeros instead of allocating its own: copying a
/// column allocates no bits, and freezing a column that did not write scans none.
///
/// Not generic over the chunk type: a column's methods are reached through ``AnyColumn`` in
/// unspecialized code, where a generic directory (and its nested group class) cost a metadata
/// lookup on every copy, write and release. The owner downcasts what ``chunk(_:)`` returns.
@usableFromInline
struct ChunkDirectory {
  /// Up to ``groupSize`` consecutive chunks, in one allocation.
  ///
  /// Fixed slots, not an array: copying a group retains each chunk directly and releasing one
  /// releases each directly, where an `[AnyObject]` goes through the runtime's generic array
  /// copy and destroy (a witness call per element), a cost every small save paid per column.
  @usableFromInline
  final class Group: ManagedBuffer<Int, AnyObject> {
    /// A group holding `chunk` alone.
    static func make(first chunk: AnyObject) -> Group {
      let group = unsafeDowncast(
        Group.create(minimumCapacity: ChunkDirectory.groupSize) { _ in 1 }, to: Group.self)
      group.withUnsafeMutablePointerToElements { $0.initialize(to: chunk) }
      return group
    }

    /// A group holding the same chunks as `other`.
    static func make(copying other: Group) -> Group {
      let count = other.count
      let group = unsafeDowncast(
        Group.create(minimumCapacity: ChunkDirectory.groupSize) { _ in count }, to: Group.self)
      group.withUnsafeMutablePointerToElements { slots in
        other.withUnsafeMutablePointerToElements { source in
          for slot in 0..<count { (slots + slot).initialize(to: source[slot]) }
        }
      }
      return group
    }

    /// The number of chunks held (read through the header's address, see
    /// ``Block/fields``).
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    /// The chunk in `slot`.
    subscript(slot: Int) -> AnyObject {
      withUnsafeMutablePointerToElements { $0[slot] }
    }

    /// Whether this group holds the only reference to the chunk in `slot`.
    func holdsAlone(_ slot: Int) -> Bool {
      withUnsafeMutablePointerToElements { isKnownUniquelyReferenced(&$0[slot]) }
    }

    /// Puts `chunk` in `slot` (set), releasing the chunk it held.
    func replace(_ slot: Int, with chunk: AnyObject) {
      withUnsafeMutablePointerToElements { $0[slot] = chunk }
    }

    /// Adds `chunk` after the last one held.
    func append(_ chunk: AnyObject) {
      withUnsafeMutablePointers { count, slots in
        (slots + count.pointee).initialize(to: chunk)
        count.pointee += 1
      }
    }

    deinit {
      withUnsafeMutablePointers { count, slots in
        // One release per chunk (`deinitialize(count:)` takes the generic array path).
        for slot in 0..<count.pointee { _ = (slots + slot).move() }
      }
    }
  }

  /// The groups of a block: ``blockSize`` slots, the first `count` set, each a strong reference.
  @usableFromInline
  struct BlockHeader {
    var count: Int
    /// The slots, in the block's own allocation after its addresses.
    let groups: UnsafeMutablePointer<Group>
    /// The block's own addresses: a directory of one block reads its page through this
    /// field (``Block/pageSlot``) instead of allocating a list of one page.
    let page: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  }

  /// Up to ``blockSize`` consecutive groups (in the header's fixed slots), and the storage
  /// addresses of their chunks (``chunksPerBlock`` slots, the first ones set), in the block's
  /// own allocation.
  ///
  /// One allocation: the element slots are the ``chunksPerBlock`` addresses followed by the
  /// ``blockSize`` group slots (rebound to `Group`; both are a pointer wide), so copying a block
  /// on a save's first write to it allocates once.
  @usableFromInline
  final class Block: ManagedBuffer<BlockHeader, UnsafeMutableRawPointer?> {
    private static func make(groups: (UnsafeMutablePointer<Group>) -> Int) -> Block {
      let block = unsafeDowncast(
        Block.create(
          minimumCapacity: ChunkDirectory.chunksPerBlock + ChunkDirectory.blockSize
        ) { buffer in
          let page = buffer.withUnsafeMutablePointerToElements { $0 }
          let slots = UnsafeMutableRawPointer(page + ChunkDirectory.chunksPerBlock).bindMemory(
            to: Group.self, capacity: ChunkDirectory.blockSize)
          return BlockHeader(count: 0, groups: slots, page: page)
        },
        to: Block.self)
      let fields = block.fields
      fields.pointee.count = groups(fields.pointee.groups)
      return block
    }

    /// A block of one group holding `chunk`, whose storage is at `address`.
    static func make(first chunk: AnyObject, address: UnsafeMutableRawPointer) -> Block {
      let block = make { slots in
        slots.initialize(to: Group.make(first: chunk))
        return 1
      }
      block.addresses.initialize(repeating: nil, count: ChunkDirectory.chunksPerBlock)
      block.addresses[0] = address
      return block
    }

    /// A block holding the same groups and addresses as `other`.
    ///
    /// Only the addresses of the chunks `other` holds are copied (a small table's one block
    /// holds a few groups of its 16, and copying all 256 addresses was most of the cost of a
    /// save's first write to a column): an address past them is written (when its directory
    /// appends the chunk) before it is ever read, and an address is a trivial value, which
    /// needs no initialization before it is assigned.
    static func make(copying other: Block) -> Block {
      let count = other.groupCount
      let block = make { slots in
        let source = other.fields.pointee.groups
        for slot in 0..<count { (slots + slot).initialize(to: source[slot]) }
        return count
      }
      // Every group but the last is full.
      let held =
        count == 0
        ? 0 : (count &- 1) &<< ChunkDirectory.groupShift &+ other.group(count &- 1).count
      block.addresses.initialize(from: other.addresses, count: held)
      return block
    }

    /// The header, through its address, which stays put for the block's lifetime.
    ///
    /// `ManagedBuffer.header` is a stored property of a class of the standard library: each
    /// access to it from this module took a dynamic exclusivity check (`swift_beginAccess`,
    /// about 76 instructions), two or three per write to a chunk and one per block released.
    /// A block is written only by the one directory that holds it alone.
    var fields: UnsafeMutablePointer<BlockHeader> { withUnsafeMutablePointerToHeader { $0 } }

    /// The number of groups held.
    var groupCount: Int { fields.pointee.count }

    /// The group in `slot`.
    func group(_ slot: Int) -> Group { fields.pointee.groups[slot] }

    /// Whether this block holds the only reference to the group in `slot`.
    func holdsAlone(_ slot: Int) -> Bool {
      isKnownUniquelyReferenced(&fields.pointee.groups[slot])
    }

    /// Puts `group` in `slot` (set), releasing the group it held.
    func replace(_ slot: Int, with group: Group) { fields.pointee.groups[slot] = group }

    /// Adds `group` after the last one held.
    func append(_ group: Group) {
      let fields = self.fields
      (fields.pointee.groups + fields.pointee.count).initialize(to: group)
      fields.pointee.count += 1
    }

    /// The addresses; valid for the block's lifetime (its storage never moves).
    var addresses: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
      withUnsafeMutablePointerToElements { $0 }
    }

    /// Where the block keeps its own ``addresses`` pointer: a list of pages of one entry, valid
    /// (and never written) for the block's lifetime.
    var pageSlot: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>> {
      withUnsafeMutablePointerToHeader { header in
        (UnsafeMutableRawPointer(header) + MemoryLayout<BlockHeader>.offset(of: \.page)!)
          .assumingMemoryBound(to: UnsafeMutablePointer<UnsafeMutableRawPointer?>.self)
      }
    }

    deinit {
      let fields = self.fields
      let groups = fields.pointee.groups
      for slot in 0..<fields.pointee.count { _ = (groups + slot).move() }
    }
  }

  @inlinable static var groupShift: Int { 4 }
  static var groupSize: Int { 1 << groupShift }
  @inlinable static var blockShift: Int { 4 }
  static var blockSize: Int { 1 << blockShift }
  /// The chunks a block holds: 256.
  @inlinable static var chunksPerBlock: Int { 1 << (groupShift + blockShift) }

  private(set) var blocks: BlockList
  /// `pages[b]` is `blocks[b].addresses`, held unretained so that reads take no reference.
  ///
  /// A directory of exactly one block (up to 256 chunks, a million rows) made by
  /// ``init(sharing:)`` reads the block's own ``Block/pageSlot`` instead of a list of its own
  /// (``pagesCapacity`` 0): copying a column then allocates no list.
  @usableFromInline var pages: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>>
  /// The slots of ``pages`` this directory allocated; 0 while it reads ``Block/pageSlot`` of
  /// its only block.
  private var pagesCapacity: Int
  /// The number of chunks.
  @usableFromInline private(set) var count: Int
  /// Bit `i` is set when chunk `i`, its group and its block are held by this directory alone.
  @usableFromInline var owned: UnsafeMutablePointer<UInt64>
  /// The words of ``owned`` this directory allocated; 0 while it reads the shared zeros.
  private var ownedWords: Int

  /// Chunks that the shared zeros have a bit for.
  private static var zeroChunks: Int { zeroWordCount * 64 }
  private static var zeroWordCount: Int { 1 << 12 }

  /// An empty directory.
  init() {
    blocks = BlockList()
    pagesCapacity = 1
    pages = .allocate(capacity: pagesCapacity)
    count = 0
    ownedWords = 1
    owned = .allocate(capacity: ownedWords)
    owned.initialize(to: 0)
  }

  /// A directory holding the same chunks as `other`, shared: neither owns any chunk alone
  /// afterwards, so the next write on either side copies.
  ///
  /// `other` is only read (several threads copy a published column at once); its ownership
  /// bits, which it shares with this copy of it, are cleared when any is set (never for a
  /// published column, see ``disown()``).
  /// - Complexity: O(chunks / 256) for the page addresses, or O(chunks / 64) when `other`
  ///   owns chunks alone (a working column being published) or holds more than ``zeroChunks``
  ///   chunks.
  init(sharing other: ChunkDirectory) {
    blocks = other.blocks
    count = other.count
    if blocks.count == 1 {
      pagesCapacity = 0
      pages = blocks[0].pageSlot
    } else {
      pagesCapacity = max(blocks.count, 1)
      pages = .allocate(capacity: pagesCapacity)
      pages.initialize(from: other.pages, count: blocks.count)
    }
    if count <= Self.zeroChunks {
      ownedWords = 0
      owned = chunkDirectoryZeroWords
    } else {
      ownedWords = (count + 63) / 64
      owned = .allocate(capacity: ownedWords)
      owned.initialize(repeating: 0, count: ownedWords)
    }
    other.disown()
  }

  /// Whether ``freeze()`` has nothing to do: the directory owns no chunk (it was frozen, or
  /// copied and not written since).
  ///
  /// Read it before ``freeze()`` on a column other threads may read: `freeze()` is a mutating
  /// access even when it has nothing to do.
  /// - Complexity: O(1); O(chunks / 64) for a directory past ``zeroChunks`` chunks.
  var isFrozen: Bool {
    ownedWords == 0 || (count > Self.zeroChunks && !(0..<ownedWords).contains { owned[$0] != 0 })
  }

  /// Gives up sole ownership of every chunk for good, before the owner is published: the
  /// directory then reads the shared zeros (its own bits freed), so later ``disown()`` calls
  /// (every copy of the published column makes one) test nothing.
  ///
  /// Writes only to a directory that has bits of its own, which a published one never has
  /// (unless it holds more than ``zeroChunks`` chunks; then its bits stay, all clear).
  /// - Complexity: O(chunks / 64) the first time, then O(1).
  mutating func freeze() {
    guard ownedWords > 0 else { return }
    guard count <= Self.zeroChunks else { return disown() }
    owned.deallocate()
    owned = chunkDirectoryZeroWords
    ownedWords = 0
  }

  /// Gives up sole ownership of every chunk, so the next write to any chunk checks for sharing.
  ///
  /// Writes nothing when no chunk is owned, so directories of published (frozen) tables, whose
  /// bits are all clear, are only read, from any thread.
  /// - Complexity: O(chunks / 64).
  func disown() {
    for word in 0..<ownedWords where owned[word] != 0 {
      owned.update(repeating: 0, count: ownedWords)
      return
    }
  }

  /// Whether `other` holds the same chunks in the same blocks: neither directory wrote or
  /// grew since one was made from the other (a write replaces a shared block and copies a
  /// shared list, see ``BlockList/isSame(as:)``).
  ///
  /// - Complexity: O(1).
  func sharesAllChunks(with other: ChunkDirectory) -> Bool {
    count == other.count && blocks.isSame(as: other.blocks)
  }

  /// Whether `other` holds the very same group object at `group` (so the same chunks); `false`
  /// when either has no such group.
  ///
  /// - Complexity: O(1).
  func sharesGroup(_ group: Int, with other: ChunkDirectory) -> Bool {
    let block = group &>> Self.blockShift
    guard block < blocks.count && block < other.blocks.count else { return false }
    if blocks[block] === other.blocks[block] { return true }
    let slot = group & (Self.blockSize - 1)
    let mine = blocks[block]
    let theirs = other.blocks[block]
    return slot < mine.groupCount && slot < theirs.groupCount
      && mine.group(slot) === theirs.group(slot)
  }

  /// The number of chunks a group holds (16).
  static var chunksPerGroup: Int { groupSize }

  /// Frees the ownership bits; the directory is unusable afterwards.
  func deallocate() {
    if ownedWords > 0 { owned.deallocate() }
    if pagesCapacity > 0 { pages.deallocate() }
  }

  /// The storage address of chunk `index`, as its owner gave it (``append(_:address:)``,
  /// ``own(_:clone:)``).
  ///
  /// - Complexity: O(1), two loads, no reference count.
  @inlinable @inline(__always)
  func address(_ index: Int) -> UnsafeMutableRawPointer {
    pages[index &>> (Self.groupShift + Self.blockShift)][index & (Self.chunksPerBlock - 1)]
      .unsafelyUnwrapped
  }

  /// Chunk `index`.
  func chunk(_ index: Int) -> AnyObject {
    let group = index &>> Self.groupShift
    return blocks[group &>> Self.blockShift].group(group & (Self.blockSize - 1))[
      index & (Self.groupSize - 1)]
  }

  /// Whether chunk `index` can be written without a copy.
  @inlinable @inline(__always)
  func owns(_ index: Int) -> Bool {
    owned[index &>> 6] & (1 &<< UInt64(index & 63)) != 0
  }

  /// Makes chunk `index` this directory's alone, replacing it with the copy `clone(chunk)`
  /// makes (and recording the copy's storage address, which `clone` also gives) when another
  /// directory shares it; copies the block and the group that lead to it when they are shared.
  mutating func own(
    _ index: Int, clone: (AnyObject) -> (chunk: AnyObject, address: UnsafeMutableRawPointer)
  ) {
    let group = index &>> Self.groupShift
    let block = group &>> Self.blockShift
    let groupSlot = group & (Self.blockSize - 1)
    let slot = index & (Self.groupSize - 1)
    ownBlock(block)
    let owner = blocks[block]
    if !owner.holdsAlone(groupSlot) {
      owner.replace(groupSlot, with: Group.make(copying: owner.group(groupSlot)))
    }
    let chunks = owner.group(groupSlot)
    if !chunks.holdsAlone(slot) {
      let copy = clone(chunks[slot])
      chunks.replace(slot, with: copy.chunk)
      owner.addresses[index & (Self.chunksPerBlock - 1)] = copy.address
    }
    markOwned(index)
  }

  /// Makes chunk `index` the very chunk `newer` holds there, shared, when this directory holds
  /// there what `older` holds (it has not written to the chunk since it was copied from
  /// `older`): the rebase of a session onto a newer version takes in what another save wrote
  /// without copying a chunk. Copies the block and the group that lead to the chunk when they
  /// are shared.
  ///
  /// - Returns: Whether chunk `index` is `newer`'s now (it may have been already); `false`
  ///   when this directory wrote to it, or either directory lacks it (nothing changes then).
  /// - Complexity: O(1), plus a copy of the block and group when they are shared.
  mutating func absorb(_ index: Int, from newer: ChunkDirectory, over older: ChunkDirectory)
    -> Bool
  {
    guard index < count, index < newer.count else { return false }
    let theirs = newer.chunk(index)
    let mine = chunk(index)
    if mine === theirs { return true }
    guard index < older.count, mine === older.chunk(index) else { return false }
    let group = index &>> Self.groupShift
    let block = group &>> Self.blockShift
    let groupSlot = group & (Self.blockSize - 1)
    ownBlock(block)
    let owner = blocks[block]
    if !owner.holdsAlone(groupSlot) {
      owner.replace(groupSlot, with: Group.make(copying: owner.group(groupSlot)))
    }
    owner.group(groupSlot).replace(index & (Self.groupSize - 1), with: theirs)
    owner.addresses[index & (Self.chunksPerBlock - 1)] = newer.address(index)
    // Shared with `newer` now: the next write here copies it.
    if index &>> 6 < ownedWords { owned[index &>> 6] &= ~(1 &<< UInt64(index & 63)) }
    return true
  }

  /// Makes block `block` (and the list of blocks) this directory's alone, copying it (its
  /// groups and its page of addresses) when it is shared.
  private mutating func ownBlock(_ block: Int) {
    if !blocks.holdsAlone(block) {
      blocks[block] = Block.make(copying: blocks[block])
      // A borrowed list is the old block's own slot, which other directories still read.
      if pagesCapacity == 0 {
        pages = blocks[block].pageSlot
      } else {
        pages[block] = blocks[block].addresses
      }
    }
  }

  /// Appends a new chunk, which this directory owns, whose storage is at `address`.
  mutating func append(_ chunk: AnyObject, address: UnsafeMutableRawPointer) {
    let group = count &>> Self.groupShift
    let block = group &>> Self.blockShift
    let groupSlot = group & (Self.blockSize - 1)
    if count & (Self.groupSize - 1) == 0 && groupSlot == 0 {
      let fresh = Block.make(first: chunk, address: address)
      blocks.append(fresh)
      if blocks.count > pagesCapacity {
        let capacity = max(blocks.count, pagesCapacity * 2)
        let grown = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>>
          .allocate(capacity: capacity)
        grown.initialize(from: pages, count: blocks.count - 1)
        if pagesCapacity > 0 { pages.deallocate() }
        pages = grown
        pagesCapacity = capacity
      }
      pages[block] = fresh.addresses
    } else {
      ownBlock(block)
      let owner = blocks[block]
      owner.addresses[count & (Self.chunksPerBlock - 1)] = address
      if count & (Self.groupSize - 1) == 0 {
        owner.append(Group.make(first: chunk))
      } else {
        if !owner.holdsAlone(groupSlot) {
          owner.replace(groupSlot, with: Group.make(copying: owner.group(groupSlot)))
        }
        owner.group(groupSlot).append(chunk)
      }
    }
    count += 1
    markOwned(count - 1)
  }

  private mutating func markOwned(_ index: Int) {
    let word = index &>> 6
    if word >= ownedWords {
      // The first write since the directory was copied or frozen allocates bits for every
      // chunk it holds (the shared zeros are never written).
      let words = max(word + 1, (count + 63) / 64, ownedWords * 2)
      let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
      grown.initialize(from: owned, count: ownedWords)
      (grown + ownedWords).initialize(repeating: 0, count: words - ownedWords)
      if ownedWords > 0 { owned.deallocate() }
      owned = grown
      ownedWords = words
    }
    owned[word] |= 1 &<< UInt64(index & 63)
  }
}

/// The ownership bits of every ``ChunkDirectory`` that owns no chunk alone: zeros, never written.
nonisolated(unsafe) private let chunkDirectoryZeroWords: UnsafeMutablePointer<UInt64> = {
  let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << 12)
  words.initialize(repeating: 0, count: 1 << 12)
  return words
}()
