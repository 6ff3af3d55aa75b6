#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The handles a context holds, one unretained reference per (entity, row): the identity map.
///
/// Each entity has its own table. While it holds few handles they sit in a small open-addressing
/// hash table (linear probing, a multiplicative hash, deletion by shifting the following entries
/// back, no tombstones), so a context that touches a handful of objects in a large table
/// allocates next to nothing; past ``denseThreshold`` handles, once they fill at least one row
/// in ``sparseSpread`` of the rows up to the highest, they move to pages of ``pageSize`` rows
/// indexed by row (a directory of pages, each page an array of handles): a lookup is two
/// loads, as in an array indexed by row (design.md: 29 ns to register, 69 ns to find, against
/// 97 and 175 for a dictionary), while memory follows the rows touched, not the table's size.
/// Handles spread thinly over a large table (a prefetch's related objects, a few per page of
/// rows) stay in the hash table, a few bytes each that stay in the cache, where pages would
/// spend a page and a cache miss or two per handle. A paged table that empties turns back
/// into a hash table. A page whose last handle goes is kept, already cleared, for the next
/// page needed until the next ``compact()`` (on save), so a fetch whose handles are dropped
/// right after allocates no page in steady state; the pages kept never outnumber the most
/// pages in use at once, and wait in a stack of their own, so taking one touches none of its
/// memory.
///
/// The storage is manually allocated memory owned by this object, and the per-entity tables sit
/// in one buffer, so registering, finding and forgetting a handle take no reference count, no
/// copy-on-write check and no exclusivity check: a few loads and stores. A context owns its map
/// and uses it on its own thread only, as every other part of the context.
final class IdentityMap {
  /// The number of handles of one entity past which its table may switch to pages by row (see
  /// ``sparseSpread``).
  static let denseThreshold = 32
  /// A hash table past ``denseThreshold`` handles moves to pages once it holds more than one
  /// handle per this many rows up to its highest row.
  static let sparseSpread = 64
  /// The number of rows per page (a power of two).
  static let pageSize = 1 << pageShift
  static let pageShift = 10

  /// One entry of a hash table: a row and its handle (`nil`: the entry is empty).
  fileprivate struct Entry {
    var row: Int
    var handle: UnsafeMutableRawPointer?
  }

  /// One page of ``pageSize`` rows in the directory: its handles and how many are set.
  fileprivate struct Page {
    var handles: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    var count = 0
  }

  /// One entity's handles.
  private struct EntityTable {
    /// The hash table (sparse mode): a power-of-two number of entries, or `nil` before the
    /// first handle.
    var entries: UnsafeMutablePointer<Entry>?
    /// The number of places in ``entries``.
    var capacity = 0
    /// `64 - log2(capacity)`: the shift that folds a row's hash into the table.
    var shift = 64
    /// The directory of pages (paged mode), indexed by `row >> pageShift`, or `nil` while
    /// sparse.
    var pages: UnsafeMutablePointer<Page>?
    /// The number of places in ``pages``.
    var pageCount = 0
    /// The number of handles.
    var count = 0
    /// The highest row registered in the hash table since it was last empty, or -1.
    var highestRow = -1
  }

  private var tables: UnsafeMutablePointer<EntityTable>
  private var tableCount: Int
  /// The cleared pages kept for reuse.
  @exclusivity(unchecked) private var spares = SparePages()
  /// Counts the insertions and removals, so a ``Vacancy`` found before one is not used after.
  private var mutations = 0

  /// An empty map.
  init() {
    tables = .allocate(capacity: 0)
    tableCount = 0
  }

  deinit {
    for entity in 0..<tableCount { release(&tables[entity]) }
    tables.deinitialize(count: tableCount)
    tables.deallocate()
    spares.releaseAll()
  }

  /// The number of entities the map has a table for (every entity below it may be asked).
  var entityCount: Int { tableCount }

  /// Whether the map has a table for `entity` (never for a negative one).
  @inline(__always)
  private func hasTable(_ entity: Int) -> Bool {
    UInt(bitPattern: entity) < UInt(bitPattern: tableCount)
  }

  /// The number of handles registered for `entity`.
  func count(ofEntity entity: Int) -> Int {
    hasTable(entity) ? tables[entity].count : 0
  }

  /// Whether `entity`'s handles are in pages by row rather than in a hash table.
  func isPaged(entity: Int) -> Bool {
    hasTable(entity) && tables[entity].pages != nil
  }

  /// The handle of `row` of `entity`, if one is registered.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  func handle(entity: Int, row: Int) -> Unmanaged<ModelObject>? {
    // The same lookup a fetch makes; the vacancy it also finds is dropped.
    find(entity: entity, row: row).handle
  }

  /// Where a handle for a row that has none goes, as ``find(entity:row:)`` saw it: a new
  /// handle made meanwhile is registered with one store (``fill(_:with:)``), without a second
  /// lookup.
  struct Vacancy {
    fileprivate var entity: Int
    fileprivate var row: Int
    /// The entry or page place the handle goes in; `nil` when the row has a handle, when the
    /// entity has no table or page for it yet, or when one more handle would grow the table:
    /// ``fill(_:with:)`` then inserts as ``insert(_:entity:row:)`` does.
    fileprivate var place: UnsafeMutableRawPointer?
    /// The page holding ``place`` in a paged table; `nil` for a hash table's entry.
    fileprivate var page: UnsafeMutablePointer<Page>?
    /// The map's count of insertions and removals when the place was found: any change since
    /// makes ``fill(_:with:)`` look the row up again.
    fileprivate var mutations: Int
  }

  /// The handle of `row` of `entity`, if one is registered, and where a new one would go.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  func find(entity: Int, row: Int) -> (handle: Unmanaged<ModelObject>?, vacancy: Vacancy) {
    var vacancy = Vacancy(entity: entity, row: row, place: nil, page: nil, mutations: mutations)
    guard hasTable(entity), row >= 0 else { return (nil, vacancy) }
    let table = tables + entity
    if let pages = table.pointee.pages {
      let pageIndex = row &>> Self.pageShift
      guard pageIndex < table.pointee.pageCount, let handles = pages[pageIndex].handles else {
        return (nil, vacancy)
      }
      let slot = handles + (row & (Self.pageSize &- 1))
      if let handle = slot.pointee { return (Unmanaged.fromOpaque(handle), vacancy) }
      vacancy.place = UnsafeMutableRawPointer(slot)
      vacancy.page = pages + pageIndex
      return (nil, vacancy)
    }
    guard let entries = table.pointee.entries else { return (nil, vacancy) }
    let mask = table.pointee.capacity &- 1
    var index = Self.home(row, shift: table.pointee.shift)
    while let handle = entries[index].handle {
      if entries[index].row == row { return (Unmanaged.fromOpaque(handle), vacancy) }
      index = (index &+ 1) & mask
    }
    let count = table.pointee.count &+ 1
    if !Self.isCrowded(count: count, capacity: table.pointee.capacity)
      && !Self.isDenseEnough(count: count, highestRow: max(table.pointee.highestRow, row))
    {
      vacancy.place = UnsafeMutableRawPointer(entries + index)
    }
    return (nil, vacancy)
  }

  /// Registers `handle` where `vacancy` says: one store when the map has not changed since it
  /// was found, otherwise as ``insert(_:entity:row:)`` does.
  ///
  /// - Complexity: O(1) expected, amortized.
  @inline(__always)
  func fill(_ vacancy: Vacancy, with handle: Unmanaged<ModelObject>) {
    guard let place = vacancy.place, vacancy.mutations == mutations else {
      insert(handle, entity: vacancy.entity, row: vacancy.row)
      return
    }
    mutations &+= 1
    let table = tables + vacancy.entity
    table.pointee.count &+= 1
    if let page = vacancy.page {
      place.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee = handle.toOpaque()
      page.pointee.count &+= 1
    } else {
      place.assumingMemoryBound(to: Entry.self).pointee = Entry(
        row: vacancy.row, handle: handle.toOpaque())
      if vacancy.row > table.pointee.highestRow { table.pointee.highestRow = vacancy.row }
    }
  }

  /// Registers `handle` for `row` of `entity`, in place of any handle registered there.
  ///
  /// - Complexity: O(1) expected, amortized.
  func insert(_ handle: Unmanaged<ModelObject>, entity: Int, row: Int) {
    precondition(entity >= 0 && row >= 0, "identity map keys are not negative")
    mutations &+= 1
    if entity >= tableCount { addTables(upTo: entity) }
    let table = tables + entity
    let pointer = handle.toOpaque()
    if table.pointee.pages != nil {
      insertPaged(pointer, table, row: row)
      return
    }
    if Self.isCrowded(count: table.pointee.count &+ 1, capacity: table.pointee.capacity) {
      growSparse(table)
    }
    let entries = table.pointee.entries!
    let mask = table.pointee.capacity &- 1
    var index = Self.home(row, shift: table.pointee.shift)
    while entries[index].handle != nil {
      if entries[index].row == row {
        entries[index].handle = pointer
        return
      }
      index = (index &+ 1) & mask
    }
    entries[index] = Entry(row: row, handle: pointer)
    table.pointee.count &+= 1
    if row > table.pointee.highestRow { table.pointee.highestRow = row }
    if Self.isDenseEnough(count: table.pointee.count, highestRow: table.pointee.highestRow) {
      makeDense(table)
    }
  }

  /// Removes the handle of `row` of `entity` if it is `handle` (a row's handle may have been
  /// replaced since `handle` was registered); returns whether it was removed.
  ///
  /// - Complexity: O(1) expected. Inlined into a handle's `deinit`, the one caller, which
  /// every handle freed runs.
  @discardableResult @inline(__always)
  func remove(_ handle: Unmanaged<ModelObject>, entity: Int, row: Int) -> Bool {
    remove(entity: entity, row: row, only: handle.toOpaque())
  }

  /// Removes whatever handle `row` of `entity` has; returns whether there was one.
  ///
  /// - Complexity: O(1) expected.
  @discardableResult
  func remove(entity: Int, row: Int) -> Bool {
    remove(entity: entity, row: row, only: nil)
  }

  @inline(__always)
  private func remove(entity: Int, row: Int, only: UnsafeMutableRawPointer?) -> Bool {
    guard hasTable(entity), row >= 0 else { return false }
    let table = tables + entity
    if let pages = table.pointee.pages {
      let pageIndex = row &>> Self.pageShift
      guard pageIndex < table.pointee.pageCount, let handles = pages[pageIndex].handles else {
        return false
      }
      let slot = handles + (row & (Self.pageSize &- 1))
      guard let found = slot.pointee, only == nil || found == only else { return false }
      slot.pointee = nil
      mutations &+= 1
      table.pointee.count &-= 1
      pages[pageIndex].count &-= 1
      if pages[pageIndex].count == 0 {
        // Every place of the page is clear again: keep it for the next page needed.
        pages[pageIndex].handles = nil
        retire(handles)
        // No page left in use: the next handles start a hash table again.
        if table.pointee.count == 0 { makeSparse(table) }
      }
      return true
    }
    guard let entries = table.pointee.entries else { return false }
    let mask = table.pointee.capacity &- 1
    let shift = table.pointee.shift
    var index = Self.home(row, shift: shift)
    while let found = entries[index].handle {
      if entries[index].row == row {
        guard only == nil || found == only else { return false }
        mutations &+= 1
        table.pointee.count &-= 1
        // Refill the hole with the entries after it whose probe path crosses it.
        var hole = index
        var next = (index &+ 1) & mask
        while entries[next].handle != nil {
          let want = Self.home(entries[next].row, shift: shift)
          if (hole &- want) & mask < (next &- want) & mask {
            entries[hole] = entries[next]
            hole = next
          }
          next = (next &+ 1) & mask
        }
        entries[hole].handle = nil
        if table.pointee.count == 0 { table.pointee.highestRow = -1 }
        return true
      }
      index = (index &+ 1) & mask
    }
    return false
  }

  /// The rows of `entity` that have a handle, in no particular order.
  func rows(ofEntity entity: Int) -> [Int] {
    guard hasTable(entity) else { return [] }
    let table = tables[entity]
    var rows: [Int] = []
    rows.reserveCapacity(table.count)
    if let pages = table.pages {
      for page in 0..<table.pageCount {
        guard let handles = pages[page].handles else { continue }
        for offset in 0..<Self.pageSize where handles[offset] != nil {
          rows.append(page &<< Self.pageShift | offset)
        }
      }
    } else if let entries = table.entries {
      for index in 0..<table.capacity where entries[index].handle != nil {
        rows.append(entries[index].row)
      }
    }
    return rows
  }

  /// Releases the storage of every entity with no handle (called on save, not on every
  /// release, so a scan that drops each handle does not regrow the map per row).
  func compact() {
    mutations &+= 1
    for entity in 0..<tableCount where tables[entity].count == 0 {
      release(&tables[entity])
    }
    spares.releaseAll()
  }

  // MARK: Storage

  /// Whether a hash table of `capacity` places holding `count` handles is too full: past half,
  /// so probes and the shifts of a removal stay short (a few hundred bytes per entity at most,
  /// since a table turns paged past ``denseThreshold`` handles).
  @inline(__always)
  private static func isCrowded(count: Int, capacity: Int) -> Bool {
    count &* 2 > capacity
  }

  /// Whether a hash table of `count` handles, the highest at `highestRow`, moves to pages:
  /// past ``denseThreshold`` handles, once they are at least one in ``sparseSpread`` rows.
  @inline(__always)
  private static func isDenseEnough(count: Int, highestRow: Int) -> Bool {
    count > denseThreshold && count &* sparseSpread > highestRow
  }

  @inline(__always)
  private static func home(_ row: Int, shift: Int) -> Int {
    // Fibonacci hashing: the high bits of row × 2^64/φ.
    Int(
      truncatingIfNeeded: (UInt64(truncatingIfNeeded: row) &* 0x9E37_79B9_7F4A_7C15)
        >> UInt64(shift))
  }

  /// Initializes `count` places at `start` to `nil` with one `memset` (a `nil` raw pointer is
  /// all zero bits).
  private static func clear(_ start: UnsafeMutablePointer<UnsafeMutableRawPointer?>, count: Int) {
    guard count > 0 else { return }
    _ = memset(start, 0, count * MemoryLayout<UnsafeMutableRawPointer?>.stride)
  }

  private func release(_ table: inout EntityTable) {
    table.entries?.deallocate()
    if let pages = table.pages {
      for page in 0..<table.pageCount { pages[page].handles?.deallocate() }
      pages.deallocate()
    }
    table = EntityTable()
  }

  /// Registers `pointer` for `row` in a paged `table`, adding the row's page if needed.
  @inline(__always)
  private func insertPaged(
    _ pointer: UnsafeMutableRawPointer, _ table: UnsafeMutablePointer<EntityTable>, row: Int
  ) {
    let pageIndex = row &>> Self.pageShift
    if pageIndex >= table.pointee.pageCount { growDirectory(table, toCover: pageIndex) }
    let page = table.pointee.pages! + pageIndex
    let handles: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    if let existing = page.pointee.handles {
      handles = existing
    } else {
      handles = newPage()
      page.pointee.handles = handles
    }
    let slot = handles + (row & (Self.pageSize &- 1))
    if slot.pointee == nil {
      table.pointee.count &+= 1
      page.pointee.count &+= 1
    }
    slot.pointee = pointer
  }

  /// A cleared page: the last one kept, or a new one.
  @inline(__always)
  private func newPage() -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
    if let spare = spares.pop() { return spare }
    let page = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Self.pageSize)
    Self.clear(page, count: Self.pageSize)
    return page
  }

  /// Keeps a cleared page for reuse.
  @inline(__always)
  private func retire(_ page: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
    spares.push(page)
  }

  private func growDirectory(_ table: UnsafeMutablePointer<EntityTable>, toCover page: Int) {
    let old = table.pointee.pageCount
    let count = max(page + 1, old * 2, 4)
    let pages = UnsafeMutablePointer<Page>.allocate(capacity: count)
    if let previous = table.pointee.pages {
      pages.moveInitialize(from: previous, count: old)
      previous.deallocate()
    }
    (pages + old).initialize(repeating: Page(), count: count - old)
    table.pointee.pages = pages
    table.pointee.pageCount = count
  }

  private func addTables(upTo entity: Int) {
    let count = max(entity + 1, tableCount * 2, 4)
    let grown = UnsafeMutablePointer<EntityTable>.allocate(capacity: count)
    grown.moveInitialize(from: tables, count: tableCount)
    (grown + tableCount).initialize(repeating: EntityTable(), count: count - tableCount)
    tables.deallocate()
    tables = grown
    tableCount = count
  }

  private func growSparse(_ table: UnsafeMutablePointer<EntityTable>) {
    let old = table.pointee.entries
    let oldCapacity = table.pointee.capacity
    let capacity = max(16, oldCapacity * 2)
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
    entries.initialize(repeating: Entry(row: 0, handle: nil), count: capacity)
    let shift = 64 - capacity.trailingZeroBitCount
    let mask = capacity - 1
    if let old {
      for position in 0..<oldCapacity where old[position].handle != nil {
        var index = Self.home(old[position].row, shift: shift)
        while entries[index].handle != nil { index = (index + 1) & mask }
        entries[index] = old[position]
      }
      old.deallocate()
    }
    table.pointee.entries = entries
    table.pointee.capacity = capacity
    table.pointee.shift = shift
  }

  /// Turns a paged `table` that holds no handle (every page retired) back into an empty hash
  /// table.
  private func makeSparse(_ table: UnsafeMutablePointer<EntityTable>) {
    table.pointee.pages?.deallocate()
    table.pointee.pages = nil
    table.pointee.pageCount = 0
    table.pointee.highestRow = -1
  }

  private func makeDense(_ table: UnsafeMutablePointer<EntityTable>) {
    let entries = table.pointee.entries!
    let capacity = table.pointee.capacity
    table.pointee.entries = nil
    table.pointee.capacity = 0
    table.pointee.shift = 64
    table.pointee.count = 0
    growDirectory(table, toCover: 0)
    for index in 0..<capacity {
      guard let handle = entries[index].handle else { continue }
      insertPaged(handle, table, row: entries[index].row)
    }
    entries.deallocate()
  }
}
