/// A group of attributes whose values together belong to at most one object of a class and its
/// descendants, resolved to slots.
public struct UniqueConstraint: Sendable, Hashable {
  /// The entity that declares the constraint; its subtree is the constraint's scope.
  public let declaringEntity: Int
  /// The attribute slots, in declaration order (the same in every entity of the scope).
  public let slots: [Int]
}
