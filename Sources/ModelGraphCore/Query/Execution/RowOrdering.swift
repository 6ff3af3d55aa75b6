/// Compiles sort keys into comparators of rows across a plan's tables.
enum RowOrdering {
  /// A comparator of one sort key: `values[t]` computes the key for rows of table `t`.
  ///
  /// Values compare with Swift's `<`; `nil` sorts first ascending and last descending, as
  /// Foundation's `SortDescriptor` does, and a `Double` NaN (or a `Date` of a NaN interval) next
  /// to it (after `nil`, before every number or date, as an ordered index holds it), so the
  /// order is total.
  /// - Throws: ``QueryError`` when the key is not of one ordered type in every table.
  static func comparator(_ values: [CompiledValue], ascending: Bool, key: QuerySortKey) throws
    -> (RowReference, RowReference) -> Int
  {
    guard let first = values.first else { return { _, _ in 0 } }
    if let bytes = StringOrdering.comparator(values, ascending: ascending) { return bytes }
    guard
      let built = try first.visitComparable(
        KeyComparator(values: values, ascending: ascending, key: key))
    else {
      throw QueryError(.typeMismatch, "\(key.expression) (a \(first.typeName)) has no order")
    }
    return built
  }

  /// The comparator of several keys, then of table position and row (the unsorted order), so
  /// the order is total and ties keep the unsorted order, as a stable sort does.
  static func lexicographic(_ keys: [(RowReference, RowReference) -> Int])
    -> (RowReference, RowReference) -> Int
  {
    // One or two keys (the common sorts) are captured one by one: a loop over the array
    // copies each closure out of it, a retain and a release per key and comparison.
    switch keys.count {
    case 1:
      let first = keys[0]
      return { a, b in
        let result = first(a, b)
        return result != 0 ? result : unsortedOrder(a, b)
      }
    case 2:
      let (first, second) = (keys[0], keys[1])
      return { a, b in
        var result = first(a, b)
        if result != 0 { return result }
        result = second(a, b)
        return result != 0 ? result : unsortedOrder(a, b)
      }
    default:
      return { a, b in
        for key in keys {
          let result = key(a, b)
          if result != 0 { return result }
        }
        return unsortedOrder(a, b)
      }
    }
  }

  /// -1, 0 or 1 as `a` comes before, is, or comes after `b` unsorted: by table position, then
  /// by row.
  @inline(__always)
  static func unsortedOrder(_ a: RowReference, _ b: RowReference) -> Int {
    if a.table != b.table { return a.table < b.table ? -1 : 1 }
    return a.row < b.row ? -1 : a.row > b.row ? 1 : 0
  }
}

private struct KeyComparator: ComparableValueVisitor {
  let values: [CompiledValue]
  let ascending: Bool
  let key: QuerySortKey

  func visit<T: QueryScalar & Comparable>(_: RowFunction<T>) throws
    -> (RowReference, RowReference) -> Int
  {
    let functions = try values.map { value in
      guard let typed = T.unwrap(value) else {
        throw QueryError(.typeMismatch, "\(key.expression) has different types in subclasses")
      }
      return typed.evaluate
    }
    let sign = ascending ? 1 : -1
    if functions.count == 1 {
      // One table: its function captured alone, so a comparison copies no closure out of an
      // array (a retain and a release each).
      let function = functions[0]
      return { a, b in Self.order(function(a.row), function(b.row), sign: sign) }
    }
    return { a, b in
      Self.order(functions[a.table](a.row), functions[b.table](b.row), sign: sign)
    }
  }

  /// `sign` times -1, 0 or 1 as `x` is before, equal to or after `y`, `nil` first, then NaN
  /// (the only value unequal to itself; checked only when neither is below the other).
  @inline(__always)
  private static func order<T: Comparable>(_ x: T?, _ y: T?, sign: Int) -> Int {
    switch (x, y) {
    case (nil, nil): return 0
    case (nil, _): return -sign
    case (_, nil): return sign
    case (let x?, let y?):
      if x < y { return -sign }
      if y < x { return sign }
      let (xIsNaN, yIsNaN) = (x != x, y != y)
      return xIsNaN == yIsNaN ? 0 : xIsNaN ? -sign : sign
    }
  }
}

/// The `k` smallest elements seen, by a comparator: a bounded max-heap.
struct TopK {
  private(set) var elements: [RowReference] = []
  let capacity: Int
  let compare: (RowReference, RowReference) -> Int

  init(capacity: Int, compare: @escaping (RowReference, RowReference) -> Int) {
    self.capacity = capacity
    self.compare = compare
    elements.reserveCapacity(min(capacity, 1 << 16))
  }

  /// Offers an element; keeps it if it is among the `k` smallest so far.
  ///
  /// - Complexity: O(log k).
  mutating func offer(_ element: RowReference) {
    guard capacity > 0 else { return }
    if elements.count < capacity {
      elements.append(element)
      siftUp(elements.count - 1)
    } else if compare(element, elements[0]) < 0 {
      elements[0] = element
      siftDown(0)
    }
  }

  /// The elements kept, sorted.
  func sorted() -> [RowReference] { elements.sorted { compare($0, $1) < 0 } }

  private mutating func siftUp(_ index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard compare(elements[child], elements[parent]) > 0 else { return }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1
      guard left < elements.count else { return }
      var largest = left
      if left + 1 < elements.count, compare(elements[left + 1], elements[left]) > 0 {
        largest = left + 1
      }
      guard compare(elements[largest], elements[parent]) > 0 else { return }
      elements.swapAt(largest, parent)
      parent = largest
    }
  }
}
