/// The engine's compact reference to one object: its concrete entity, row and row generation.
///
/// A row is reused after its object is deleted and the deletion saved, but with the next
/// generation, so a key to the deleted object never resolves to the row's new object.
public struct ObjectKey: ColumnValue, Comparable, CustomStringConvertible {
  /// The index of the object's concrete entity in the store's catalog.
  public var entity: UInt32
  /// The object's row in its entity's table.
  public var row: UInt32
  /// The row's generation when the object was created.
  public var generation: UInt32

  /// Makes a key.
  public init(entity: Int, row: Int, generation: UInt32) {
    self.entity = UInt32(truncatingIfNeeded: entity)
    self.row = UInt32(truncatingIfNeeded: row)
    self.generation = generation
  }

  /// A key that refers to nothing; never a live object's.
  public static var placeholder: ObjectKey { ObjectKey(entity: -1, row: -1, generation: 0) }

  /// The key as an array of entity, row and generation.
  public var modelValue: ModelValue {
    .array([.uint(UInt64(entity)), .uint(UInt64(row)), .uint(UInt64(generation))])
  }

  /// Unpacks ``modelValue``.
  public init?(modelValue: ModelValue) {
    guard case .array(let parts) = modelValue, parts.count == 3,
      let entity = UInt32(modelValue: parts[0]), let row = UInt32(modelValue: parts[1]),
      let generation = UInt32(modelValue: parts[2])
    else { return nil }
    self.entity = entity
    self.row = row
    self.generation = generation
  }

  /// Orders by entity, then row, then generation.
  public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
    (lhs.entity, lhs.row, lhs.generation) < (rhs.entity, rhs.row, rhs.generation)
  }

  /// `entity:row.generation`.
  public var description: String { "\(entity):\(row).\(generation)" }
}
