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
  /// The notes of the versions before, newest first: the first is the note of the version
  /// ``previous`` names (published over the version its own `previous` names), and so on.
  /// Kept for at most ``longestChain`` versions and ``largestNoted`` rows in all.
  let earlier: [Link]

  /// The note of one earlier version: the version it was published over, and the rows written.
  struct Link: Sendable {
    let previous: UInt64
    let rows: [Int32]
  }

  /// The note of a version published over a table whose own note was `before` (if any).
  init(previous: UInt64, rows: [Int32], following before: TableChangeNote? = nil) {
    self.previous = previous
    self.rows = rows
    var earlier: [Link] = []
    if let before {
      var total = rows.count + before.rows.count
      if total <= Self.largestNoted {
        // Every publish makes a note per table it writes: one allocation, not one per doubling.
        earlier.reserveCapacity(min(Self.longestChain, 1 + before.earlier.count))
        earlier.append(Link(previous: before.previous, rows: before.rows))
        for link in before.earlier.prefix(Self.longestChain - 1) {
          total += link.rows.count
          guard total <= Self.largestNoted else { break }
          earlier.append(link)
        }
      }
    }
    self.earlier = earlier
  }

  /// The rows that may differ between this version and the older version of the same table
  /// whose serial is `serial`, ascending, without repeats; `nil` when the notes do not reach it.
  ///
  /// - Complexity: O(rows of the notes walked).
  func rows(since serial: UInt64) -> [Int32]? {
    if previous == serial { return rows }
    var union = rows
    for link in earlier {
      union = Self.merged(union, link.rows)
      if link.previous == serial { return union }
    }
    return nil
  }

  /// The union of two ascending lists without repeats.
  private static func merged(_ first: [Int32], _ second: [Int32]) -> [Int32] {
    var result: [Int32] = []
    result.reserveCapacity(first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count && j < second.count {
      if first[i] < second[j] {
        result.append(first[i])
        i += 1
      } else if second[j] < first[i] {
        result.append(second[j])
        j += 1
      } else {
        result.append(first[i])
        i += 1
        j += 1
      }
    }
    result += first[i...]
    result += second[j...]
    return result
  }

  /// The most rows a save notes on a table; a larger save leaves no note, so a published
  /// version keeps at most 16 KiB of note (not 4 bytes for every row of a bulk load).
  static let largestNoted = 4096

  /// The most versions a note reaches back.
  static let longestChain = 8
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
    // Gathered in an array, sorted, then deduplicated in place: a small save's few rows cost
    // one allocation and no hashing.
    var rows: [Int32] = []
    rows.reserveCapacity(
      inserted.count + updated.count + deleted.count + relationshipsUpdated.count)
    for row in inserted { rows.append(Int32(row)) }
    for (row, _) in updated { rows.append(Int32(row)) }
    for (row, _) in deleted { rows.append(Int32(row)) }
    for row in relationshipsUpdated { rows.append(Int32(row)) }
    // By radix when many: the standard sort took about 240 instructions a row of a save
    // updating 10,000 objects.
    PackedRowSort.sort(rows: &rows)
    var kept = 0
    for index in rows.indices where kept == 0 || rows[index] != rows[kept - 1] {
      rows[kept] = rows[index]
      kept += 1
    }
    rows.removeLast(rows.count - kept)
    return rows
  }
}
