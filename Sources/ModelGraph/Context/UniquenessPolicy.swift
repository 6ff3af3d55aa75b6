/// What a save does when a new object's unique attribute, or the attributes of a unique
/// constraint together, match a saved object's.
public enum UniquenessPolicy: Sendable, Hashable {
  /// The save throws a ``ModelError`` listing the conflict (the default).
  case reject
  /// The new object's values update the saved object, as SwiftData does: the saved object's
  /// row takes every attribute the new object set and its non-empty relationships, the new
  /// object's own row is dropped, and the new instance then stands for the saved object (or,
  /// if the context already holds an instance of it, is marked deleted: use that one).
  case upsert
}
