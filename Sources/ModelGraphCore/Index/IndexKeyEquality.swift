/// Whether `a` and `b` are the same index key: `==`, except that a NaN is the same key as a
/// NaN, so an index finds again the entry of a NaN it holds (to remove or move it). A query
/// never matches NaN: lookups of it find nothing.
@inline(__always)
func isSameIndexKey<Key: Equatable>(_ a: Key, _ b: Key) -> Bool {
  a == b || (a != a && b != b)
}
