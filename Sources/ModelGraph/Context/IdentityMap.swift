/// The handles a context holds, one unretained reference per (entity, row): the identity map.
///
/// Each entity has its own table. While it holds few handles they sit in a small open-addressing
/// hash table (linear probing, a multiplicative hash, deletion by shifting the following entries
/// back, no tombstones), so a context that touches a handful of objects in a large table does not
/// allocate a slot per row; past ``denseThreshold`` handles they move to an array indexed by row,
/// the fastest map for many objects (design.md: 29 ns to register, 69 ns to find, against 97 and
/// 175 for a dictionary).
///
/// The storage is manually allocated memory owned by this object, and the per-entity tables sit
/// in one buffer, so registering, finding and forgetting a handle take no reference count, no
/// copy-on-write check and no exclusivity check: a few loads and stores. A context owns its map
/// and uses it on its own thread only, as every other part of the context.
final class IdentityMap {
  /// The number of handles of one entity at which its table switches to an array indexed by row.
  static let denseThreshold = 512

  /// One entry of a hash table: a row and its handle (`nil`: the entry is empty).
  private struct Entry {
    var row: Int
    var handle: UnsafeMutableRawPointer?
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
    /// The array indexed by row (dense mode), or `nil` while sparse.
    var dense: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// The number of rows ``dense`` covers.
    var denseCount = 0
    /// The number of handles.
    var count = 0
  }

  private var tables: UnsafeMutablePointer<EntityTable>
  private var tableCount: Int

  /// An empty map.
  init() {
    tables = .allocate(capacity: 0)
    tableCount = 0
  }

  deinit {
    for entity in 0..<tableCount { release(&tables[entity]) }
    tables.deinitialize(count: tableCount)
    tables.deallocate()
  }

  /// The number of entities the map has a table for (every entity below it may be asked).
  var entityCount: Int { tableCount }

  /// The number of handles registered for `entity`.
  func count(ofEntity entity: Int) -> Int {
    entity < tableCount ? tables[entity].count : 0
  }

  /// The handle of `row` of `entity`, if one is registered.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  func handle(entity: Int, row: Int) -> Unmanaged<ModelObject>? {
    guard entity < tableCount else { return nil }
    let table = tables + entity
    if let dense = table.pointee.dense {
      guard row < table.pointee.denseCount, let handle = dense[row] else { return nil }
      return Unmanaged.fromOpaque(handle)
    }
    guard let entries = table.pointee.entries else { return nil }
    let mask = table.pointee.capacity &- 1
    var index = Self.home(row, shift: table.pointee.shift)
    while let handle = entries[index].handle {
      if entries[index].row == row { return Unmanaged.fromOpaque(handle) }
      index = (index &+ 1) & mask
    }
    return nil
  }

  /// Registers `handle` for `row` of `entity`, in place of any handle registered there.
  ///
  /// - Complexity: O(1) expected, amortized.
  func insert(_ handle: Unmanaged<ModelObject>, entity: Int, row: Int) {
    precondition(entity >= 0 && row >= 0, "identity map keys are not negative")
    if entity >= tableCount { addTables(upTo: entity) }
    let table = tables + entity
    let pointer = handle.toOpaque()
    if table.pointee.dense != nil {
      if row >= table.pointee.denseCount { growDense(table, toCover: row) }
      let slot = table.pointee.dense! + row
      if slot.pointee == nil { table.pointee.count &+= 1 }
      slot.pointee = pointer
      return
    }
    if (table.pointee.count &+ 1) &* 4 > table.pointee.capacity &* 3 { growSparse(table) }
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
    if table.pointee.count > Self.denseThreshold { makeDense(table) }
  }

  /// Removes the handle of `row` of `entity` if it is `handle` (a row's handle may have been
  /// replaced since `handle` was registered); returns whether it was removed.
  ///
  /// - Complexity: O(1) expected.
  @discardableResult
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
    guard entity < tableCount, row >= 0 else { return false }
    let table = tables + entity
    if let dense = table.pointee.dense {
      guard row < table.pointee.denseCount, let found = dense[row], only == nil || found == only
      else { return false }
      dense[row] = nil
      table.pointee.count &-= 1
      return true
    }
    guard let entries = table.pointee.entries else { return false }
    let mask = table.pointee.capacity &- 1
    let shift = table.pointee.shift
    var index = Self.home(row, shift: shift)
    while let found = entries[index].handle {
      if entries[index].row == row {
        guard only == nil || found == only else { return false }
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
        return true
      }
      index = (index &+ 1) & mask
    }
    return false
  }

  /// The rows of `entity` that have a handle, in no particular order.
  func rows(ofEntity entity: Int) -> [Int] {
    guard entity < tableCount else { return [] }
    let table = tables[entity]
    var rows: [Int] = []
    rows.reserveCapacity(table.count)
    if let dense = table.dense {
      for row in 0..<table.denseCount where dense[row] != nil { rows.append(row) }
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
    for entity in 0..<tableCount where tables[entity].count == 0 {
      release(&tables[entity])
    }
  }

  // MARK: Storage

  @inline(__always)
  private static func home(_ row: Int, shift: Int) -> Int {
    // Fibonacci hashing: the high bits of row × 2^64/φ.
    Int(
      truncatingIfNeeded: (UInt64(truncatingIfNeeded: row) &* 0x9E37_79B9_7F4A_7C15)
        >> UInt64(shift))
  }

  private func release(_ table: inout EntityTable) {
    table.entries?.deallocate()
    table.dense?.deallocate()
    table = EntityTable()
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

  private func makeDense(_ table: UnsafeMutablePointer<EntityTable>) {
    let entries = table.pointee.entries!
    var maxRow = 0
    for index in 0..<table.pointee.capacity where entries[index].handle != nil {
      maxRow = max(maxRow, entries[index].row)
    }
    let count = max(maxRow + 1, 64)
    let dense = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
    dense.initialize(repeating: nil, count: count)
    for index in 0..<table.pointee.capacity where entries[index].handle != nil {
      dense[entries[index].row] = entries[index].handle
    }
    entries.deallocate()
    table.pointee.entries = nil
    table.pointee.capacity = 0
    table.pointee.shift = 64
    table.pointee.dense = dense
    table.pointee.denseCount = count
  }

  private func growDense(_ table: UnsafeMutablePointer<EntityTable>, toCover row: Int) {
    let old = table.pointee.denseCount
    let count = max(row + 1, old * 2)
    let dense = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
    dense.moveInitialize(from: table.pointee.dense!, count: old)
    (dense + old).initialize(repeating: nil, count: count - old)
    table.pointee.dense!.deallocate()
    table.pointee.dense = dense
    table.pointee.denseCount = count
  }
}
