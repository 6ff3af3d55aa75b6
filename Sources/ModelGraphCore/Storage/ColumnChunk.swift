/// A fixed-size block of column values, the unit a column copies on write.
///
/// Every chunk holds exactly `1 << AnyColumn.chunkShift` initialized values (the rows past a
/// column's count hold the placeholder). Its element storage never moves, so a column keeps a
/// plain pointer to it beside the owning reference.
@usableFromInline
final class ColumnChunk<Element: ColumnValue>: ManagedBuffer<Void, Element> {
  @usableFromInline static var capacity: Int { 1 << AnyColumn.chunkShift }

  /// A chunk filled with the placeholder value.
  static func make() -> ColumnChunk<Element> {
    let chunk = unsafeDowncast(
      ColumnChunk<Element>.create(minimumCapacity: capacity) { _ in }, to: ColumnChunk.self)
    chunk.withUnsafeMutablePointerToElements {
      $0.initialize(repeating: Element.placeholder, count: capacity)
    }
    return chunk
  }

  /// A chunk holding a copy of this one's values.
  func clone() -> ColumnChunk<Element> {
    let chunk = unsafeDowncast(
      ColumnChunk<Element>.create(minimumCapacity: Self.capacity) { _ in }, to: ColumnChunk.self)
    withUnsafeMutablePointerToElements { source in
      chunk.withUnsafeMutablePointerToElements {
        if _isPOD(Element.self) {
          // One block copy: element by element, an optional or a tuple costs ~15 instructions.
          UnsafeMutableRawPointer($0).copyMemory(
            from: source, byteCount: Self.capacity * MemoryLayout<Element>.stride)
        } else {
          $0.initialize(from: source, count: Self.capacity)
        }
      }
    }
    return chunk
  }

  /// The address of the first value; valid for the chunk's lifetime.
  var base: UnsafeMutablePointer<Element> { withUnsafeMutablePointerToElements { $0 } }

  deinit {
    _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: Self.capacity) }
  }
}
