/// A stored schema that cannot be brought to the code's schema: what differs and why it fails.
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Sendable, Hashable {
    /// The file's schema differs from the code's and no migration plan covers the difference.
    case schemaMismatch
    /// A lightweight stage meets a change it cannot make without code (a custom stage).
    case notLightweight
    /// The migration plan is inconsistent (duplicate versions, a stage naming an unknown
    /// version, no path to the newest version).
    case invalidPlan
    /// The stored data breaks a rule of the newer schema (a new `.unique` attribute with
    /// duplicate values, a derived to-one relationship with two candidates).
    case invalidData
    /// A custom stage left values unset, changed its old (read-only) context, or saved its new
    /// context while values were still owed.
    case incompleteCustomStage
  }

  /// What kind of failure this is.
  public var code: Code
  /// The snapshot file concerned, when there is one.
  public var path: String?
  /// The differences concerned: all of them for ``Code/schemaMismatch``, the offending ones
  /// otherwise.
  public var differences: [SchemaDifference]
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(
    _ code: Code, path: String? = nil, differences: [SchemaDifference] = [], message: String
  ) {
    self.code = code
    self.path = path
    self.differences = differences
    self.message = message
  }

  /// `path: message` followed by the differences, one per line.
  public var description: String {
    let head = (path.map { "\($0): " } ?? "") + message
    return ([head] + differences.map { "  \($0)" }).joined(separator: "\n")
  }
}

extension MigrationError {
  /// The error of a migration that narrows `attribute`'s integer width
  /// (``AttributeDescription/integerWidth``) from `previous`'s, or makes it `Float`
  /// (``AttributeDescription/isFloat32``), while `holder` (an object or a row of class
  /// `entity`) holds a value outside it: `problem` says which, and `remedy` where to rewrite
  /// such values first.
  public static func narrowedWidth(
    of attribute: AttributeDescription, from previous: AttributeDescription, in entity: String,
    holder: String, problem: String, remedy: String
  ) -> MigrationError {
    MigrationError(
      .invalidData,
      differences: [
        SchemaDifference(
          entity: entity, property: attribute.name,
          change: attribute.isFloat32
            ? .attributeFloatWidthChanged(
              from: previous.declaredTypeName, to: attribute.declaredTypeName)
            : .attributeIntegerWidthChanged(
              from: previous.declaredTypeName, to: attribute.declaredTypeName))
      ],
      message: "\(entity).\(attribute.name) is \(attribute.declaredTypeName) now, but \(holder) "
        + "holds a value it cannot: \(problem); rewrite such values first (\(remedy))")
  }
}
