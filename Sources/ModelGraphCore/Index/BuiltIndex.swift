/// An index built for one frozen table version, which can be carried to a version published
/// over it (``IndexShelf/carry(from:to:)``).
protocol BuiltIndex: AnyObject, Sendable {
  /// The attribute's slot in the table.
  var slot: Int { get }
  /// The index as a query reads it: made the first time a reader asks (``LazyIndexView``).
  var view: any TableIndex { get }
  /// Whether a reader has asked for ``view`` yet.
  var hasView: Bool { get }
}

/// Carries a built index of one key type to a newer version of its table: run through the
/// attribute's ``AttributeDescription/visitIndexKey(_:)``, so the carrying code is specialized
/// for the key type (through the protocol it ran as unspecialized generic code, about 50,000
/// instructions to lay one save's rows over a hash index's overlay).
struct IndexCarrier: IndexKeyVisitor {
  let built: any BuiltIndex
  let old: Table
  let new: Table

  func visit<Key: IndexKey>(_: Key.Type) -> (any BuiltIndex)? {
    let slot = built.slot
    if let hash = built as? HashBuilt<Key> {
      return hash.carried(by: IndexDelta(from: old, to: new, slot: slot))
    }
    if let ordered = built as? OrderedBuilt<Key> {
      return ordered.carried(by: IndexDelta(from: old, to: new, slot: slot))
    }
    return nil
  }

  /// `built` carried from `old` to `new` (a version of the table published over `old`); `nil`
  /// when `new` does not hold the attribute as `old` does (its schema changed).
  ///
  /// - Complexity: O(rows written between the versions) when `new`'s ``Table/changeNote``
  ///   reaches back to `old`; otherwise O(chunks written between them).
  static func carry(_ built: any BuiltIndex, from old: Table, to new: Table) -> (any BuiltIndex)? {
    let slot = built.slot
    guard slot < new.entity.attributes.count, slot < old.entity.attributes.count else {
      return nil
    }
    let attribute = new.entity.attributes[slot]
    if new.entity !== old.entity {
      let before = old.entity.attributes[slot]
      guard attribute.name == before.name, attribute.valueType == before.valueType,
        attribute.isOptional == before.isOptional
      else { return nil }
    }
    return (try? attribute.visitIndexKey(IndexCarrier(built: built, old: old, new: new))) ?? nil
  }
}

/// A hash index for a frozen table version: a base index built for an earlier version, with
/// the rows the versions disagree on laid over it.
///
/// Carrying a hash index to a newer version copies the partitions the changes touch and the
/// arrays that hold them; so a new version keeps its predecessor's base and adds the save's
/// changes to the overlay, and only makes a new base once the overlay outgrows
/// ``HashOverlay/foldBound`` rows. A save of one object then costs O(1) amortized here, at any
/// size of the table.
final class HashBuilt<Key: IndexKey>: BuiltIndex, @unchecked Sendable {
  // @unchecked Sendable: immutable; the view's closures only read the immutable index.
  let base: HashIndex<Key>
  /// The rows of this version whose entries differ from `base`.
  let overlay: HashOverlay<Key>
  let definition: IndexDefinition
  let slot: Int
  private let madeView: LazyIndexView

  init(_ definition: IndexDefinition, slot: Int, base: HashIndex<Key>, overlay: HashOverlay<Key>) {
    self.base = base
    self.overlay = overlay
    self.definition = definition
    self.slot = slot
    madeView = LazyIndexView { HashIndexView.make(definition, base: base, overlay: overlay) }
  }

  var view: any TableIndex { madeView.view }

  var hasView: Bool { madeView.isMade }

  /// The index of `definition` for `table`, built from its rows.
  ///
  /// - Complexity: O(n) for n live rows.
  convenience init(_ definition: IndexDefinition, slot: Int, table: Table) {
    self.init(
      definition, slot: slot,
      base: HashIndex<Key>.build(column: table.column(slot, as: Key.self), stamps: table.stamps),
      overlay: HashOverlay())
  }

  /// The index of the next version, whose entries differ from this one's by `step`.
  func carried(by step: IndexDelta<Key>) -> HashBuilt {
    if step.isEmpty { return self }
    let total = overlay.applying(step)
    guard total.count > HashOverlay<Key>.foldBound else {
      return HashBuilt(definition, slot: slot, base: base, overlay: total)
    }
    return HashBuilt(
      definition, slot: slot, base: base.applying(total.delta), overlay: HashOverlay())
  }
}

/// An ordered index for a frozen table version: a base index built for an earlier version,
/// with the entries the versions disagree on laid over it.
///
/// Carrying an ordered index to a newer version rewrites its sorted arrays, O(n); so a new
/// version keeps its predecessor's base and adds the save's changes to the delta, and only
/// rewrites the base once the delta outgrows √n entries (at least 64). A save then costs
/// O(√n log n) amortized here, not O(n).
final class OrderedBuilt<Key: IndexKey>: BuiltIndex, @unchecked Sendable {
  // @unchecked Sendable: immutable; the view's closures only read the immutable index.
  let base: OrderedIndex<Key>
  /// The entries of this version that differ from `base`.
  let delta: IndexDelta<Key>
  let definition: IndexDefinition
  let slot: Int
  private let madeView: LazyIndexView

  init(
    _ definition: IndexDefinition, slot: Int, base: OrderedIndex<Key>, delta: IndexDelta<Key>
  ) {
    self.base = base
    self.delta = delta
    self.definition = definition
    self.slot = slot
    madeView = LazyIndexView { OrderedIndexView.make(definition, base: base, delta: delta) }
  }

  var view: any TableIndex { madeView.view }

  var hasView: Bool { madeView.isMade }

  /// The index of `definition` for `table`, built from its rows.
  ///
  /// - Complexity: O(n log n) for n live rows.
  convenience init(_ definition: IndexDefinition, slot: Int, table: Table) {
    self.init(
      definition, slot: slot,
      base: OrderedIndex<Key>.build(
        column: table.column(slot, as: Key.self), stamps: table.stamps),
      delta: IndexDelta())
  }

  /// The index of the next version, whose entries differ from this one's by `step`.
  func carried(by step: IndexDelta<Key>) -> OrderedBuilt {
    if step.isEmpty { return self }
    let total = delta.followed(by: step)
    let bound = max(64, Int(Double(base.count).squareRoot()))
    guard total.removed.count + total.added.count > bound else {
      return OrderedBuilt(definition, slot: slot, base: base, delta: total)
    }
    return OrderedBuilt(
      definition, slot: slot, base: base.applying(total), delta: IndexDelta())
  }

}
