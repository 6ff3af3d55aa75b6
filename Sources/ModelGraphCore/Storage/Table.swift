/// The rows of one concrete entity: a typed column per attribute and relationship.
///
/// Each row has a stamp: its generation shifted left by one, with the low bit set while an
/// object lives in the row. A table reachable from a published ``StoreVersion`` is frozen; a
/// session works on a ``copy()`` that shares its chunks until it writes.
public final class Table: @unchecked Sendable {
  // @unchecked Sendable: a frozen table is never mutated (sessions mutate only their copies),
  // and a session's working table never leaves the session.

  /// The entity whose objects the rows hold.
  public let entity: ResolvedEntity
  /// One column per attribute slot.
  @exclusivity(unchecked) public var attributeColumns: [AnyColumn] {
    didSet { refreshColumnReferences() }
  }
  /// ``attributeColumns`` as unretained references, so reads take no reference count: the
  /// elements of the array's own storage, which the table holds (and ``attributeColumns``'s
  /// observer points here again whenever the array is set), so a table allocates no list of its
  /// own for them.
  @exclusivity(unchecked) @usableFromInline var columnReferences: UnsafeRawPointer
  /// One column per relationship slot: `ObjectKey?` for to-one, a ``KeyListColumn`` for to-many.
  @exclusivity(unchecked) public var relationshipColumns: [AnyColumn]
  /// Row stamps: generation << 1 | alive.
  @exclusivity(unchecked) public var stamps: Column<UInt32>
  /// The number of live rows.
  @exclusivity(unchecked) public internal(set) var liveCount: Int
  /// An object the session's owner keeps with its working table, next to the columns its
  /// reads touch (the typed API's observation state); unretained, so the owner keeps it alive.
  /// `nil` on a new table and on every copy.
  @inlinable public var attachment: Unmanaged<AnyObject>? {
    get { _attachment }
    set { _attachment = newValue }
  }
  @exclusivity(unchecked) @usableFromInline var _attachment: Unmanaged<AnyObject>?
  /// A number that tells this table object apart from every other of the process.
  let serial = Table.nextSerial()
  /// For a published version: the rows it may differ in from the version it was published
  /// over; set by the save before it publishes the table, `nil` when unknown.
  var changeNote: TableChangeNote?
  /// The indexes built for this table as a frozen version, made with the first one (a working
  /// table has none: a session lays its changes over the committed version's indexes).
  private let indexes = OnceReference<IndexShelf>()

  /// An empty table for `entity`.
  public init(entity: ResolvedEntity) {
    self.entity = entity
    attributeColumns = entity.attributes.map { makeColumn(of: $0.storageType) }
    relationshipColumns = entity.relationships.map {
      $0.isToMany ? KeyListColumn() : Column<ObjectKey?>()
    }
    stamps = Column()
    liveCount = 0
    columnReferences = Self.references(attributeColumns)
  }

  private init(copying other: Table, reusing base: Table? = nil) {
    entity = other.entity
    attributeColumns = Self.columns(of: other.attributeColumns, reusing: base?.attributeColumns)
    relationshipColumns = Self.columns(
      of: other.relationshipColumns, reusing: base?.relationshipColumns)
    stamps = unsafeDowncast(
      Self.column(other.stamps, reusing: base?.stamps), to: Column<UInt32>.self)
    liveCount = other.liveCount
    columnReferences = Self.references(attributeColumns)
  }

  /// Copies of `columns`, except that a column holding exactly the chunks of its counterpart
  /// in `reused` is that counterpart itself.
  private static func columns(of columns: [AnyColumn], reusing reused: [AnyColumn]?)
    -> [AnyColumn]
  {
    guard let reused, reused.count == columns.count else { return columns.map { $0.copy() } }
    // Not through an uninitialized capacity of 0: that writes the count of the storage every
    // empty array shares, a write that races with other threads reading it.
    guard !columns.isEmpty else { return [] }
    // Filled in place: `zip(_:_:).map` went through the generic append path per column, on
    // every table a save publishes.
    return [AnyColumn](unsafeUninitializedCapacity: columns.count) { slots, initialized in
      columns.withUnsafeBufferPointer { columns in
        reused.withUnsafeBufferPointer { reused in
          for index in columns.indices {
            (slots.baseAddress! + index).initialize(
              to: column(columns[index], reusing: reused[index]))
          }
        }
      }
      initialized = columns.count
    }
  }

  private static func column(_ column: AnyColumn, reusing reused: AnyColumn?) -> AnyColumn {
    if let reused, column.sharesAllChunks(with: reused) { return reused }
    return column.copy()
  }

  private func refreshColumnReferences() {
    columnReferences = Self.references(attributeColumns)
  }

  /// The address of the elements of `columns`, which ``columnReference(_:)`` loads as
  /// unretained references (a class reference and an `Unmanaged` of it have one layout).
  ///
  /// Valid while the array's storage lives and is not written: the table holds it in
  /// ``attributeColumns``, and writing that array (which may move or copy the storage) runs its
  /// observer, which takes the address again.
  private static func references(_ columns: [AnyColumn]) -> UnsafeRawPointer {
    columns.withUnsafeBufferPointer { buffer in
      // An empty array's address is never read.
      buffer.baseAddress.map(UnsafeRawPointer.init)
        ?? UnsafeRawPointer(bitPattern: MemoryLayout<AnyColumn>.alignment)!
    }
  }

  /// The column of attribute `slot`, unretained: valid while the table holds it.
  @inlinable @inline(__always)
  func columnReference(_ slot: Int) -> Unmanaged<AnyColumn> {
    columnReferences.load(
      fromByteOffset: slot &* MemoryLayout<Unmanaged<AnyColumn>>.stride,
      as: Unmanaged<AnyColumn>.self)
  }

  /// Marks every column's chunks as possibly shared, before the table is published.
  ///
  /// Also runs on every table a newer version keeps as it is, and on the tables a journal
  /// replay wrote after their version was made: a column that owns no chunk returns at once.
  func freeze() {
    stamps.freeze()
    for column in attributeColumns { column.freeze() }
    for column in relationshipColumns { column.freeze() }
  }

  /// A table with the same rows whose chunks are shared until either table writes.
  ///
  /// - Complexity: O(columns × chunks).
  public func copy() -> Table { Table(copying: self) }

  /// A copy of this working table to publish in the version after `base` (the committed
  /// table it was copied from): each column it did not write is `base`'s column object itself,
  /// so a save costs O(columns written), not O(columns).
  ///
  /// Only for a copy that is frozen without being written: a reused column belongs to `base`
  /// too.
  /// - Complexity: O(columns + columns written × chunks), the second term a copy of each
  ///   written column's chunk addresses.
  func publishedCopy(over base: Table) -> Table { Table(copying: self, reusing: base) }

  /// The indexes built for this frozen table; `nil` until the first is.
  var indexShelf: IndexShelf? { indexes.value }

  /// This frozen table's shelf of indexes, made when it has none.
  func makeIndexShelf() -> IndexShelf { indexes.value { IndexShelf() } }

  /// This frozen table's shelf of indexes; `make` makes it when the table has none.
  func makeIndexShelf(_ make: () -> IndexShelf) -> IndexShelf { indexes.value(make) }

  /// The number of rows, live or not.
  @inlinable public var rowCount: Int { stamps.count }

  /// Whether an object lives in `row`.
  @inlinable public func isAlive(_ row: Int) -> Bool {
    row < stamps.count && stamps[row] & 1 == 1
  }

  /// The generation of `row`.
  @inlinable public func generation(of row: Int) -> UInt32 { stamps[row] >> 1 }

  /// Whether `key` names the object living in its row now.
  public func contains(_ key: ObjectKey) -> Bool {
    let row = Int(key.row)
    return row < stamps.count && stamps[row] == key.generation << 1 | 1
  }

  /// The typed column of attribute `slot`.
  ///
  /// The caller guarantees that `Element` is the attribute's storage type.
  @inlinable @inline(__always)
  public func column<Element: ColumnValue>(_ slot: Int, as _: Element.Type) -> Column<Element> {
    unsafeDowncast(attributeColumns[slot], to: Column<Element>.self)
  }

  /// The value of attribute `slot` at `row`, read without taking a reference count.
  ///
  /// The caller guarantees that `Element` is the attribute's storage type and `slot` exists.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  public func value<Element: ColumnValue>(_ slot: Int, row: Int, as _: Element.Type) -> Element {
    columnReference(slot)._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: Column<Element>.self)[row]
    }
  }

  /// Grows every column to hold `count` rows (columns allocate a whole chunk at a time); new
  /// rows are empty (not alive).
  ///
  /// Runs on every insert: the columns are reached without a reference count each.
  func grow(to count: Int) {
    guard count > stamps.count else { return }
    stamps.grow(to: count)
    for slot in attributeColumns.indices {
      columnReference(slot)._withUnsafeGuaranteedRef { $0.grow(to: count) }
    }
    relationshipColumns.withUnsafeBufferPointer { columns in
      columns.withMemoryRebound(to: Unmanaged<AnyColumn>.self) { references in
        for reference in references {
          reference._withUnsafeGuaranteedRef { $0.grow(to: count) }
        }
      }
    }
  }

  /// Marks `row` as holding a new object of `generation`, growing the table if needed.
  func activate(row: Int, generation: UInt32) {
    grow(to: row + 1)
    stamps[row] = generation << 1 | 1
    liveCount += 1
  }

  /// Ends the life of the object of `generation` in `row`, live or already marked deleted:
  /// moves the row to its next generation. Its values stay until ``clearRows(_:)``.
  ///
  /// - Returns: `false` when the row holds another object (nothing changes).
  func retire(row: Int, _ generation: UInt32) -> Bool {
    guard row < rowCount else { return false }
    let stamp = stamps[row]
    if stamp == generation << 1 | 1 {
      liveCount -= 1
    } else if stamp != generation << 1 {
      return false
    }
    stamps[row] = (generation &+ 1) << 1
    return true
  }

  /// Resets every value of `rows` (ascending, no repeats) to its column's placeholder,
  /// releasing what they held; a string column rewrites each chunk's bytes once.
  ///
  /// - Complexity: O(columns × rows), plus O(bytes) per string chunk touched.
  func clearRows(_ rows: [Int]) {
    guard !rows.isEmpty else { return }
    for column in attributeColumns { column.clear(rows: rows) }
    for column in relationshipColumns { column.clear(rows: rows) }
  }

  /// Calls `body` with every live row, in row order.
  @inlinable
  public func forEachLiveRow(_ body: (Int) throws -> Void) rethrows {
    try stamps.forEachChunk { start, stamps in
      for offset in stamps.indices where stamps[offset] & 1 == 1 {
        try body(start + offset)
      }
    }
  }

  /// Copies every value of `row` in `source` (a table of the same entity) into `row` here.
  func copyRow(_ row: Int, from source: Table) {
    for (column, other) in zip(attributeColumns, source.attributeColumns) {
      column.copyValue(from: other, row: row)
    }
    copyRelationships(row, from: source)
  }

  /// Copies the attribute values at `slots` of `row` in `source` into `row` here.
  func copyAttributes(_ slots: SlotSet, row: Int, from source: Table) {
    for slot in slots.slots(below: attributeColumns.count) {
      attributeColumns[slot].copyValue(from: source.attributeColumns[slot], row: row)
    }
  }

  /// Copies every relationship value of `row` in `source` into `row` here.
  func copyRelationships(_ row: Int, from source: Table) {
    for (column, other) in zip(relationshipColumns, source.relationshipColumns) {
      column.copyValue(from: other, row: row)
    }
  }
}

extension Table {
  /// Makes this table's rows those of `other` (same entity), sharing its chunks.
  ///
  /// A column that already holds exactly `other`'s chunks (it wrote nothing since it was
  /// copied, or `other` was published from it) is kept.
  /// - Complexity: O(columns), plus O(chunks) per column replaced (a copy of its chunk addresses).
  func reset(to other: Table) {
    Self.reset(&attributeColumns, to: other.attributeColumns)
    Self.reset(&relationshipColumns, to: other.relationshipColumns)
    if !stamps.sharesAllChunks(with: other.stamps) {
      stamps = unsafeDowncast(other.stamps.copy(), to: Column<UInt32>.self)
    }
    liveCount = other.liveCount
  }

  /// Replaces each of `columns` that does not hold exactly its counterpart's chunks in
  /// `target` with a copy of the counterpart; assigns `columns` only when one is replaced.
  private static func reset(_ columns: inout [AnyColumn], to target: [AnyColumn]) {
    guard columns.count == target.count else {
      columns = target.map { $0.copy() }
      return
    }
    var replaced: [AnyColumn]?
    for index in target.indices where !columns[index].sharesAllChunks(with: target[index]) {
      if replaced == nil { replaced = columns }
      replaced![index] = target[index].copy()
    }
    if let replaced { columns = replaced }
  }
}
