import Foundation

/// The chunks of a `String` or `String?` column: UTF-8 arenas (``StringChunk``) in a
/// ``ChunkDirectory``, shared between column copies and copied on write like element chunks.
///
/// ``Column`` holds one when its element type is `String` or `String?` and keeps its values here
/// instead of in element chunks; reading a value decodes a `String` from the row's bytes.
@usableFromInline
final class StringColumnStorage: @unchecked Sendable {
  // @unchecked Sendable: see AnyColumn.

  /// The chunks, with each one's address, so a read takes no reference.
  @exclusivity(unchecked) private var directory: ChunkDirectory

  /// Whether the rows are `String?`: new rows hold `nil`, else the empty string.
  private let isOptional: Bool

  /// The longest value a chunk holds in its arena; longer ones are held out of line
  /// (``StringChunk/inlineLimit`` unless a test lowers it). Copies keep it.
  var inlineLimit = StringChunk.inlineLimit

  /// An empty storage; new rows hold the placeholder of `String?` (`nil`) when `isOptional`,
  /// else of `String` (`""`).
  init(isOptional: Bool) {
    self.isOptional = isOptional
    directory = ChunkDirectory()
  }

  /// A storage sharing `other`'s chunks: the next write on either side copies the chunk.
  init(sharing other: StringColumnStorage) {
    isOptional = other.isOptional
    inlineLimit = other.inlineLimit
    directory = ChunkDirectory(sharing: other.directory)
  }

  deinit {
    directory.deallocate()
  }

  /// The number of chunks.
  @usableFromInline var chunkCount: Int { directory.count }

  /// Chunk `index`, to read.
  @inline(__always)
  func chunk(_ index: Int) -> StringChunk {
    Unmanaged<StringChunk>.fromOpaque(directory.address(index)).takeUnretainedValue()
  }

  /// Chunk `index`, to read without a reference count: valid while this storage holds it.
  @inline(__always)
  func chunkReference(_ index: Int) -> Unmanaged<StringChunk> {
    Unmanaged<StringChunk>.fromOpaque(directory.address(index))
  }

  /// Chunk `index`, this storage's alone (copied first when shared), to write.
  func chunkForWriting(_ index: Int) -> StringChunk {
    if !directory.owns(index) {
      directory.own(index) {
        let copy = unsafeDowncast($0, to: StringChunk.self).clone()
        return (copy, Unmanaged.passUnretained(copy).toOpaque())
      }
    }
    return chunk(index)
  }

  /// The string at `row`.
  @usableFromInline
  func string(_ row: Int) -> String {
    chunk(row &>> AnyColumn.chunkShift).string(row & AnyColumn.chunkMask)
  }

  /// The optional string at `row`.
  @usableFromInline
  func optionalString(_ row: Int) -> String? {
    chunk(row &>> AnyColumn.chunkShift).optionalString(row & AnyColumn.chunkMask)
  }

  /// Stores `value` at `row`, copying the row's chunk first if it is shared.
  @usableFromInline
  func set(_ value: String?, at row: Int) {
    chunkForWriting(row &>> AnyColumn.chunkShift).set(
      value, at: row & AnyColumn.chunkMask, inlineLimit: inlineLimit)
  }

  /// Whether `row` holds the same value here and in `other` by `String?`'s `==`: the same
  /// chunk, equal bytes, or, for rows that are not both simple ASCII, equal decoded strings.
  func hasSameValue(at row: Int, as other: StringColumnStorage) -> Bool {
    let x = chunk(row &>> AnyColumn.chunkShift)
    let y = other.chunk(row &>> AnyColumn.chunkShift)
    let offset = row & AnyColumn.chunkMask
    if x === y { return true }
    if x.isNil(offset) || y.isNil(offset) { return x.isNil(offset) == y.isNil(offset) }
    if x.isSimple(offset) && y.isSimple(offset) {
      let (xStart, xCount) = x.span(offset)
      let (yStart, yCount) = y.span(offset)
      return xCount == yCount && memcmp(x.bytes + xStart, y.bytes + yStart, xCount) == 0
    }
    return x.string(offset) == y.string(offset)
  }

  /// Resets `rows` (ascending, no repeats) to the placeholder (`nil` or `""`), rewriting each
  /// chunk's bytes once instead of moving them once per row.
  func clear(rows: [Int]) {
    var start = 0
    while start < rows.count {
      let index = rows[start] &>> AnyColumn.chunkShift
      var end = start + 1
      while end < rows.count && rows[end] &>> AnyColumn.chunkShift == index { end += 1 }
      chunkForWriting(index).clear(
        rows[start..<end].map { $0 & AnyColumn.chunkMask }, toNil: isOptional)
      start = end
    }
  }

  /// Adds empty chunks until there are `count`.
  func grow(toChunks count: Int) {
    while directory.count < count {
      // A new chunk's arena starts at the size of the last one's bytes, so columns of
      // similar values fill it without growing it step by step.
      let previous = directory.count > 0 ? chunk(directory.count - 1).used : 0
      let fresh = StringChunk(isOptional: isOptional, byteCapacity: previous + previous / 16)
      directory.append(fresh, address: Unmanaged.passUnretained(fresh).toOpaque())
    }
  }

  /// Makes chunk `index` `newer`'s own chunk when this storage still holds `older`'s there
  /// (``ChunkDirectory/absorb(_:from:over:)``).
  ///
  /// - Returns: Whether chunk `index` is now `newer`'s.
  func absorbChunk(_ index: Int, from newer: StringColumnStorage, over older: StringColumnStorage)
    -> Bool
  {
    directory.absorb(index, from: newer.directory, over: older.directory)
  }

  /// See ``AnyColumn/packedCopies(from:minimum:)``: the copies hold no spare arena capacity.
  func packedCopies(from first: Int, minimum: Int) -> PackedChunks {
    directory.packedCopies(of: directory.ownedChunks(from: first, minimum: minimum)) {
      let copy = unsafeDowncast($0, to: StringChunk.self).clone(spare: false)
      return (copy, Unmanaged.passUnretained(copy).toOpaque())
    }
  }

  /// See ``AnyColumn/install(_:)``.
  func install(_ copies: PackedChunks) { directory.install(copies) }

  /// See ``AnyColumn/freeze()``.
  func freeze() { if !directory.isFrozen { directory.freeze() } }

  /// Whether `other` holds the same chunks in the same groups (see
  /// ``ChunkDirectory/sharesAllChunks(with:)``).
  func sharesAllChunks(with other: StringColumnStorage) -> Bool {
    directory.sharesAllChunks(with: other.directory)
  }

  /// Whether `other` holds the very same group of chunks `group`.
  func sharesGroup(_ group: Int, with other: StringColumnStorage) -> Bool {
    directory.sharesGroup(group, with: other.directory)
  }
}

extension ColumnValue {
  /// Whether a column of `Self` keeps its values as UTF-8 (`String` and `String?`); folded to a
  /// constant in code specialized for one type.
  @inlinable @inline(__always)
  static var storesUTF8: Bool { Self.self == String.self || Self.self == String?.self }
}
