import Foundation

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
    for descriptor in sort {
      guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath,
        case .attribute(let name) = KeyPathResolution.property(keyPath),
        PredicateValueTypes.isOrderable(
          PredicateValueTypes.unwrapped(type(of: keyPath).valueType))
      else { return nil }
      keys.append(QuerySortKey(.attribute(name), ascending: descriptor.order == .forward))
    }
    return keys
  }
}
