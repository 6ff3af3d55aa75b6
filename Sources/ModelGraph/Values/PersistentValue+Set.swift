import Foundation
public import ModelGraphCore

extension Set: PersistentValue where Element: PersistentValue {
  /// An array of the element's storage type, as for `Array`.
  public static var valueType: ValueType { .array(Element.valueType) }
  /// The empty set.
  public static var probeValue: Set<Element> { [] }
  /// The element type's.
  public static var _integerWidth: QueryIntegerWidth? { Element._integerWidth }
  /// The element type's.
  public static var _isFloat32: Bool { Element._isFloat32 }
  /// The set of the stored elements.
  public static func fromStored(_ stored: [Element.Stored]) -> Set<Element> {
    Set(stored.map(Element.fromStored))
  }
  /// Each element's storage representation, in one canonical order, so equal sets store equal
  /// arrays (and compare equal in a predicate) whatever their iteration order.
  public var stored: [Element.Stored] {
    map(\.stored).sorted { canonicallyPrecedes($0.modelValue, $1.modelValue) }
  }
}

/// A total order on stored values: by kind, then by value (bytes and arrays lexicographically).
func canonicallyPrecedes(_ lhs: ModelValue, _ rhs: ModelValue) -> Bool {
  switch (lhs, rhs) {
  case (.bool(let a), .bool(let b)): return !a && b
  case (.int(let a), .int(let b)): return a < b
  case (.uint(let a), .uint(let b)): return a < b
  case (.double(let a), .double(let b)): return a.isTotallyOrdered(belowOrEqualTo: b) && a != b
  case (.string(let a), .string(let b)): return a < b
  case (.date(let a), .date(let b)): return a < b
  case (.uuid(let a), .uuid(let b)): return a.uuidString < b.uuidString
  case (.url(let a), .url(let b)): return a.absoluteString < b.absoluteString
  case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
  case (.decimal(let a), .decimal(let b)): return a < b
  case (.array(let a), .array(let b)):
    return a.lexicographicallyPrecedes(b, by: canonicallyPrecedes)
  default: return kindRank(lhs) < kindRank(rhs)
  }
}

private func kindRank(_ value: ModelValue) -> Int {
  switch value {
  case .null: 0
  case .bool: 1
  case .int: 2
  case .uint: 3
  case .double: 4
  case .string: 5
  case .date: 6
  case .uuid: 7
  case .url: 8
  case .data: 9
  case .decimal: 10
  case .array: 11
  }
}
