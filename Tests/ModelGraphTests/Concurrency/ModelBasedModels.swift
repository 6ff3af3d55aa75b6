import ModelGraph

// Models of the model-based test of several contexts (prefixed `MB`). Every object carries the
// test's serial number, so the reference model names objects the same way whatever rows and
// identifiers the engine gives them.

/// An owner: a unique code across the hierarchy, its items (deleted with it) and the items it
/// keeps (which lose their keeper when it is deleted).
class MBOwner: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute(.unique) var code: String
  @Attribute var name: String
  @Attribute var score: Int
  @Relationship(deleteRule: .cascade, inverse: \MBItem.owner) var items: [MBItem]
  @Relationship(deleteRule: .nullify, inverse: \MBItem.keeper) var kept: [MBItem]

  class var indexes: [ModelIndex] { [.ordered(\MBOwner.score), .hash(\MBOwner.name)] }

  convenience init(serial: Int, code: String, name: String, score: Int) {
    self.init()
    self.serial = serial
    self.code = code
    self.name = name
    self.score = score
  }
}

/// A subclass of owner with an attribute of its own, indexed.
final class MBVIPOwner: MBOwner {
  @Attribute var tier: Int

  override class var indexes: [ModelIndex] { [.ordered(\MBVIPOwner.tier)] }

  convenience init(serial: Int, code: String, name: String, score: Int, tier: Int) {
    self.init(serial: serial, code: code, name: name, score: score)
    self.tier = tier
  }
}

/// An item: belongs to at most one owner and is kept by at most one (possibly another) owner.
final class MBItem: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var label: String
  @Attribute var weight: Double
  @Relationship var owner: MBOwner?
  @Relationship var keeper: MBOwner?

  static var indexes: [ModelIndex] { [.ordered(\MBItem.weight)] }

  convenience init(serial: Int, label: String, weight: Double) {
    self.init()
    self.serial = serial
    self.label = label
    self.weight = weight
  }
}
