/// What a session changed, per entity: a ``TableChanges`` for each entity it touched, found by
/// entity number without hashing.
struct SessionChanges: Sequence {
  typealias Element = (key: Int, value: TableChanges)

  private var tables: [TableChanges?] = []

  /// No changes.
  init() {}

  /// The changes of `entity`, or `nil` when the session recorded none; setting `nil` forgets
  /// them.
  subscript(entity: Int) -> TableChanges? {
    get { entity < tables.count ? tables[entity] : nil }
    set {
      grow(toCover: entity)
      tables[entity] = newValue
    }
  }

  /// The changes of `entity`, started empty when there are none, for in-place updates.
  subscript(entity: Int, default defaultValue: @autoclosure () -> TableChanges) -> TableChanges {
    get { self[entity] ?? defaultValue() }
    _modify {
      grow(toCover: entity)
      if tables[entity] == nil { tables[entity] = defaultValue() }
      yield &tables[entity]!
    }
  }

  /// Whether no entity has recorded changes.
  var isEmpty: Bool { !tables.contains { $0 != nil } }

  /// The number of entities with recorded changes.
  var entityCount: Int { tables.reduce(0) { $1 == nil ? $0 : $0 + 1 } }

  /// The entities with recorded changes, ascending.
  var keys: [Int] { map { $0.key } }

  /// Forgets every change.
  mutating func removeAll() { tables = [] }

  func makeIterator() -> Iterator { Iterator(tables: tables) }

  /// The entities with recorded changes and their changes, by ascending entity.
  struct Iterator: IteratorProtocol {
    fileprivate let tables: [TableChanges?]
    fileprivate var entity = 0

    mutating func next() -> Element? {
      while entity < tables.count {
        defer { entity += 1 }
        if let change = tables[entity] { return (entity, change) }
      }
      return nil
    }
  }

  private mutating func grow(toCover entity: Int) {
    if entity >= tables.count {
      tables += Array(repeating: nil, count: entity + 1 - tables.count)
    }
  }
}
