/// The handles a context holds for the rows of one entity: one unretained reference per row.
///
/// While few handles are registered they sit in a small hash map (``SparseRowMap``), so a
/// context that touches a handful of objects in a large table does not allocate a slot per
/// row; past ``denseThreshold`` they move to an array indexed by row, the fastest map for many
/// objects (design.md: 29 ns to register, 69 ns to find, against 97 and 175 for a dictionary).
struct IdentityTable {
  /// The number of handles at which the table switches to an array indexed by row.
  static let denseThreshold = 512

  private var dense: [Unmanaged<ModelObject>?] = []
  private var sparse = SparseRowMap()
  private var isDense = false
  /// The number of handles registered.
  private(set) var count = 0

  /// The handle of `row`, if one is registered.
  ///
  /// - Complexity: O(1).
  subscript(row: Int) -> Unmanaged<ModelObject>? {
    get {
      if isDense { return row < dense.count ? dense[row] : nil }
      return sparse[row]
    }
    set {
      if isDense {
        if row >= dense.count {
          guard newValue != nil else { return }
          // Appended in place: no temporary array of the added length.
          dense.append(
            contentsOf: repeatElement(nil, count: max(row + 1, dense.count * 2) - dense.count))
        }
        count += (newValue != nil ? 1 : 0) - (dense[row] != nil ? 1 : 0)
        dense[row] = newValue
        return
      }
      let old: Unmanaged<ModelObject>?
      if let newValue {
        old = sparse.update(newValue, forRow: row)
      } else {
        old = sparse.remove(row: row)
      }
      count += (newValue != nil ? 1 : 0) - (old != nil ? 1 : 0)
      if sparse.count > Self.denseThreshold { makeDense() }
    }
  }

  private mutating func makeDense() {
    let entries = sparse.entries
    let rows = entries.lazy.map(\.row).max() ?? 0
    dense = Array(repeating: nil, count: max(rows + 1, 64))
    for (row, handle) in entries { dense[row] = handle }
    sparse = SparseRowMap()
    isDense = true
  }

  /// The rows that have a handle.
  var rows: [Int] {
    isDense ? dense.indices.filter { dense[$0] != nil } : sparse.entries.map(\.row)
  }

  /// Releases the storage when no handle is registered.
  mutating func compact() {
    guard count == 0 else { return }
    self = IdentityTable()
  }
}
