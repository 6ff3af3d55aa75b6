import Synchronization

/// The rows a published table version may differ in from the version it was published over.
///
/// A save records it on each table it publishes (``Session/publish()``), so that whoever
/// carries an index from the older version to the newer one (``IndexDelta``) compares only
/// these rows, not every chunk the two versions do not share.
struct TableChangeNote: Sendable {
  /// The ``Table/serial`` of the version the table was published over.
  let previous: UInt64
  /// The rows written, ascending, without repeats: every other row holds the same stamp and
  /// values in both versions.
  let rows: [Int32]

  /// The most rows a save notes on a table; a larger save leaves no note, so a published
  /// version keeps at most 16 KiB of note (not 4 bytes for every row of a bulk load).
  static let largestNoted = 4096
}

extension Table {
  private static let serials = Atomic<UInt64>(0)

  /// A number no other table object of the process has had.
  static func nextSerial() -> UInt64 {
    serials.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

extension TableChanges {
  /// The rows these changes may have written, ascending, without repeats.
  ///
  /// - Complexity: O(r log r) for r rows changed.
  var writtenRows: [Int32] {
    var rows = Set<Int32>(minimumCapacity: inserted.count + updated.count + deleted.count)
    for row in inserted { rows.insert(Int32(row)) }
    for (row, _) in updated { rows.insert(Int32(row)) }
    for (row, _) in deleted { rows.insert(Int32(row)) }
    for row in relationshipsUpdated { rows.insert(Int32(row)) }
    return rows.sorted()
  }
}
