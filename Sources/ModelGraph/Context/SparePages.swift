/// The cleared pages an ``IdentityMap`` keeps for reuse: a stack of their addresses in memory
/// of its own, so that keeping a page or taking it back touches none of the page's memory
/// (a page's first place, used as a link, cost a cache miss per page taken).
///
/// Manually allocated and freed by its owner (``releaseAll()``); a value with no `deinit`, used
/// only inside its map.
struct SparePages {
  private var pages: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>>?
  private var count = 0
  private var capacity = 0

  /// The page kept last, no longer kept; `nil` when none is.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func pop() -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
    guard count > 0, let pages else { return nil }
    count &-= 1
    return pages[count]
  }

  /// Keeps `page` for reuse.
  ///
  /// - Complexity: O(1) amortized.
  @inline(__always)
  mutating func push(_ page: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
    if count == capacity { grow() }
    pages![count] = page
    count &+= 1
  }

  /// Frees every page kept, and the stack.
  mutating func releaseAll() {
    guard let pages else { return }
    for index in 0..<count { pages[index].deallocate() }
    pages.deallocate()
    self = SparePages()
  }

  private mutating func grow() {
    let grown = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutableRawPointer?>>.allocate(
      capacity: max(16, capacity &* 2))
    if let pages {
      grown.moveInitialize(from: pages, count: count)
      pages.deallocate()
    }
    pages = grown
    capacity = max(16, capacity &* 2)
  }
}
