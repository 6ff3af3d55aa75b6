import Foundation
import ModelGraphCore

/// Translates Foundation `SortDescriptor`s into the engine's sort keys.
enum SortTranslation {
  /// The engine's sort keys for `sort`, or `nil` when one of them has no engine equivalent:
  /// a string comparator (`comparator: .lexical` and the like), a key path that names no
  /// persisted attribute, or an attribute whose order is not its stored value's (an enum).
  ///
  /// A descriptor made with `SortDescriptor(\.name)` compares with `<` (for strings, Unicode
  /// canonical order), `nil` first when ascending, as the engine does.
  static func keys<T>(_ sort: [SortDescriptor<T>]) -> [QuerySortKey]? {
    var keys: [QuerySortKey] = []
    keys.reserveCapacity(sort.count)
    for descriptor in sort {
      guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath,
        let name = orderedAttribute(keyPath)
      else { return nil }
      keys.append(QuerySortKey(.attribute(name), ascending: descriptor.order == .forward))
    }
    return keys
  }

  /// The attribute `keyPath` reads when the engine orders it as Swift does; else `nil`.
  ///
  /// - Complexity: O(1), without a lock, once the thread has seen the key path object.
  private static func orderedAttribute(_ keyPath: AnyKeyPath) -> String? {
    orderedAttributes.value(for: ObjectIdentifier(keyPath)) {
      guard case .attribute(let name) = KeyPathResolution.property(keyPath),
        PredicateValueTypes.isOrderable(
          PredicateValueTypes.unwrapped(type(of: keyPath).valueType))
      else { return OrderedAttribute(keyPath: keyPath, name: nil) }
      return OrderedAttribute(keyPath: keyPath, name: name)
    }.name
  }

  private struct OrderedAttribute: @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable; holding one keeps its identity unique.
    let keyPath: AnyKeyPath
    let name: String?
  }

  /// ``orderedAttribute(_:)`` by key path object (key path literals are instantiated once).
  /// An entry keeps its key path alive, so no other key path can take its identifier.
  private static let orderedAttributes = ThreadCache<ObjectIdentifier, OrderedAttribute>()

  /// Why the first sort descriptor of `sort` with no engine equivalent has none, as a clause
  /// (`$0.name uses a string comparator`), for `explain`.
  static func untranslatable<T>(_ sort: [SortDescriptor<T>]) -> String? {
    for descriptor in sort {
      guard let keyPath = descriptor.keyPath else { return "a sort descriptor has no key path" }
      let name = KeyPathResolution.name(keyPath)
      let prefix = "\\\(shortName(type(of: keyPath).rootType))."
      let member = "$0." + (name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name)
      if descriptor.stringComparator != nil { return "\(member) uses a string comparator" }
      guard case .attribute = KeyPathResolution.property(keyPath) else {
        return "\(member) is not a persisted attribute"
      }
      if !PredicateValueTypes.isOrderable(
        PredicateValueTypes.unwrapped(type(of: keyPath).valueType))
      {
        return "\(member) is not ordered by its stored value"
      }
    }
    return nil
  }
}
