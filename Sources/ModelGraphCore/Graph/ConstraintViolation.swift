/// One rule a change set breaks, found by ``Session/validate()``.
public struct ConstraintViolation: Sendable, Hashable, CustomStringConvertible {
  /// The kind of rule broken.
  public enum Rule: String, Sendable, Hashable {
    /// A non-optional attribute of a new object was never set.
    case missingValue
    /// A unique attribute or unique constraint holds a value another object holds.
    case notUnique
    /// A deleted object's deny relationship still points at live objects.
    case deny
    /// A to-many relationship holds fewer or more objects than its limits allow.
    case count
    /// A required to-one relationship holds no live object.
    case required
    /// An integer attribute holds a value outside the range of its declared Swift type
    /// (``AttributeDescription/integerWidth``), or a `Float` attribute a `Double` that is no
    /// `Float` value (``AttributeDescription/isFloat32``).
    case outOfRange
  }

  /// The object concerned.
  public var key: ObjectKey
  /// The class of the object concerned.
  public var entity: String
  /// The property concerned (for a unique constraint, its attributes joined by `+`).
  public var property: String
  /// The kind of rule broken.
  public var rule: Rule
  /// The rule and the values involved, in a few words.
  public var detail: String

  /// `Entity.property: detail`.
  public var description: String { "\(entity).\(property): \(detail)" }
}
