extension KeyPathResolution {
  /// `keyPath` as a reader knows it, for messages: `\Trip.name` for a persisted property.
  ///
  /// The runtime prints a key path to a property of a non-final class as
  /// `\Trip.<computed 0x…>`, so the name of a persisted property comes from the class's probe;
  /// a key path to anything else is named by its root and value types.
  static func name(_ keyPath: AnyKeyPath) -> String {
    let root = type(of: keyPath).rootType
    let value = type(of: keyPath).valueType
    if root is ModelObject.Type {
      switch property(keyPath) {
      case .attribute(let name), .relationship(let name): return "\\\(shortName(root)).\(name)"
      case .identity: return "\\\(shortName(root)).persistentModelID"
      case nil: return "\\\(shortName(root)).(a computed or @Transient \(value) property)"
      }
    }
    if let member = knownMember(keyPath, root: root) { return "\\\(shortName(root)).\(member)" }
    let text = String(describing: keyPath)
    guard text.contains("<computed") else { return text }
    return "\\\(shortName(root)).(a property of type \(value))"
  }

  /// The members of strings and arrays a predicate reads.
  private static func knownMember(_ keyPath: AnyKeyPath, root: Any.Type) -> String? {
    if keyPath == \String.count { return "count" }
    if keyPath == \String.isEmpty { return "isEmpty" }
    if let array = root as? any _ArrayType.Type {
      if keyPath == array.countKeyPath { return "count" }
      if keyPath == array.isEmptyKeyPath { return "isEmpty" }
    }
    return nil
  }
}
