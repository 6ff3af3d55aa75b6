import ModelGraph

/// A base class whose attribute is private to this file, so a subclass in another file can
/// declare a property of the same name (the only way Swift lets a name be declared twice in a
/// class hierarchy).
class SEPrivateBase: PersistentModel {
  @Attribute private var code: String

  /// Sets the private attribute, so the class is usable.
  func setCode(_ value: String) { code = value }
}
