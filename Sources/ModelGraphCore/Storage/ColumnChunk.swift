import Synchronization

/// A fixed-size block of column values, the unit a column copies on write.
///
/// Every chunk holds exactly `1 << AnyColumn.chunkShift` initialized values. Its element
/// storage never moves, so a column keeps a plain pointer to it beside the owning reference.
///
/// The rows past a column's count hold the placeholder, with one exception: a shared chunk of
/// plain values can take appended rows without a copy. Its header's ``ChunkClaim`` says from
/// which row on nobody reads it, and one column at a time may claim those rows and write them
/// (see ``Column``); they are past the count of every other column holding the chunk, which
/// never reads them.
@usableFromInline
final class ColumnChunk<Element: ColumnValue>: ManagedBuffer<ChunkClaim?, Element> {
  @usableFromInline static var capacity: Int { 1 << AnyColumn.chunkShift }

  /// A chunk filled with the placeholder value.
  static func make() -> ColumnChunk<Element> {
    let chunk = unsafeDowncast(
      ColumnChunk<Element>.create(minimumCapacity: capacity) { _ in nil }, to: ColumnChunk.self)
    chunk.withUnsafeMutablePointerToElements {
      $0.initialize(repeating: Element.placeholder, count: capacity)
    }
    return chunk
  }

  /// A chunk holding a copy of this one's first `prefix` values, the placeholder after them.
  ///
  /// The rows from `prefix` on are not read: another column may be writing them (it claimed
  /// them), and the copy's owner reads none of them (its column holds fewer rows).
  func clone(prefix: Int = capacity) -> ColumnChunk<Element> {
    let chunk = unsafeDowncast(
      ColumnChunk<Element>.create(minimumCapacity: Self.capacity) { _ in nil },
      to: ColumnChunk.self)
    withUnsafeMutablePointerToElements { source in
      chunk.withUnsafeMutablePointerToElements {
        if _isPOD(Element.self) {
          // One block copy: element by element, an optional or a tuple costs ~15 instructions.
          let copied = Swift.max(0, Swift.min(prefix, Self.capacity))
          UnsafeMutableRawPointer($0).copyMemory(
            from: source, byteCount: copied * MemoryLayout<Element>.stride)
          ($0 + copied).initialize(repeating: Element.placeholder, count: Self.capacity - copied)
        } else {
          // Never claimed (see `claim(from:)`): the rows past any count hold the placeholder.
          $0.initialize(from: source, count: Self.capacity)
        }
      }
    }
    return chunk
  }

  /// The address of the first value; valid for the chunk's lifetime.
  var base: UnsafeMutablePointer<Element> { withUnsafeMutablePointerToElements { $0 } }

  /// The header (the chunk's claim), through its address: an access to `ManagedBuffer.header`
  /// from this module takes a dynamic exclusivity check (`swift_beginAccess`) every time.
  private var claimHeader: UnsafeMutablePointer<ChunkClaim?> {
    withUnsafeMutablePointerToHeader { $0 }
  }

  /// Takes the rows from `start` on for the caller to write in place: succeeds when they hold
  /// the placeholder, nobody reads them and nobody else has taken them (the chunk's claim
  /// stands at `start`). Only for plain values, which a copy reads as bytes.
  ///
  /// - Complexity: O(1), one compare-and-exchange.
  func claim(from start: Int) -> Bool {
    guard _isPOD(Element.self), let claim = claimHeader.pointee else { return false }
    return claim.take(from: start)
  }

  /// Lets the rows from `start` on be claimed again: they hold the placeholder and nobody
  /// reads them. The caller owns the chunk alone or claimed it.
  func release(from start: Int) {
    guard _isPOD(Element.self) else { return }
    let slot = claimHeader
    if let claim = slot.pointee {
      claim.release(from: start)
    } else {
      // Owned alone: nobody else can see the header yet.
      slot.pointee = ChunkClaim(from: start)
    }
  }

  /// Gives up a claim on the rows from `start` on without keeping what the claimer wrote in
  /// them (below `end`): they get the placeholder back and can be claimed again from `start`.
  func abandonClaim(from start: Int, to end: Int) {
    let end = Swift.min(end, Self.capacity)
    if end > start { (base + start).update(repeating: Element.placeholder, count: end - start) }
    release(from: start)
  }

  deinit {
    _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: Self.capacity) }
  }
}

/// The first row of a shared chunk that may be claimed for appending in place; past the
/// chunk's capacity while a column holds the claim (or once nobody may claim).
@usableFromInline
final class ChunkClaim: Sendable {
  private let start: Atomic<Int>

  init(from start: Int) { self.start = Atomic(start) }

  /// Takes the rows from `start` on, when they are free from exactly there.
  func take(from start: Int) -> Bool {
    self.start.compareExchange(
      expected: start, desired: Int.max, successOrdering: .acquiringAndReleasing,
      failureOrdering: .relaxed
    ).exchanged
  }

  /// Frees the rows from `start` on.
  func release(from start: Int) { self.start.store(start, ordering: .releasing) }
}
