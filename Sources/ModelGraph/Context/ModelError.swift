public import ModelGraphCore

/// A failure of a context operation that the caller can act on: a save that breaks a rule, a
/// fetch that cannot run.
public struct ModelError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Sendable, Hashable {
    /// A save found one or more rule violations; ``violations`` lists them.
    case validationFailed
    /// A predicate threw while it was evaluated.
    case predicateFailed
    /// A model class could not be registered: an object of a class the container was not
    /// given, and that cannot be stored, was inserted. ``schemaError`` says why.
    case schema
    /// A fetch descriptor asks for something no fetch can do (a negative limit or offset).
    case invalidDescriptor
    /// A container was given configurations it cannot honour (several different stores).
    case invalidConfiguration
    /// A save changed objects that another context changed or deleted since this one read them;
    /// ``conflicts`` lists them and nothing was saved.
    case conflict
    /// An `enumerate` block left unsaved changes, which `allowEscapingMutations` did not allow.
    case escapingMutations
    /// Saved attribute values are no values of their declared types (written by another
    /// version of an enum or a `Codable` type); ``violations`` names each.
    case storedValueMismatch
    /// Arithmetic in a predicate overflowed on an object the fetch tested: an integer `+`,
    /// `-`, `*`, `/` or `%` out of its type's range (`Int.min / -1` too), the negation of
    /// `Int.min`, or a `Decimal` result out of `Decimal`'s range. `Predicate.evaluate` would
    /// stop the process there; the fetch (or count, or delete) throws instead, returns
    /// nothing and changes nothing.
    ///
    /// Only objects the fetch tests can fault, as in SQL databases: one that an index leaves
    /// out, or that an earlier operand of `&&` or `||` decides, is not computed on, so the
    /// same data may fault under one plan and not another. Operands are tested in the order
    /// written once arithmetic can fault: a guard written first
    /// (`$0.count != 0 && $0.total / $0.count > 10`) keeps the objects it excludes from being
    /// computed on.
    case arithmeticOverflow
    /// Arithmetic in a predicate divided by zero on an object the fetch tested: an integer
    /// `/` or `%`, or a `Decimal` `/`. As for ``arithmeticOverflow``, only objects the fetch
    /// tests fault.
    case divisionByZero
    /// A predicate computes integer or `Decimal` arithmetic, or builds a range whose bounds
    /// are not constants in order, inside a part the engine does not evaluate (a computed
    /// property, a `Set` compared with `==`, …), so `Predicate.evaluate` would compute it,
    /// and stop the process where it overflows, divides by zero or inverts the range: the
    /// fetch (or count, or delete) refuses the predicate before it runs, naming the part.
    /// Arithmetic in a conjunct (`&&`) the engine evaluates, or computed outside the predicate
    /// and captured, is not refused. A `fetchHistory(_:)` predicate, which
    /// `Predicate.evaluate` runs whole, is refused the same way.
    case unsupportedPredicate
  }

  /// One rule a save found broken.
  public struct Violation: Sendable, Hashable, CustomStringConvertible {
    /// The class of the object concerned.
    public var entity: String
    /// The property concerned.
    public var property: String
    /// The object concerned.
    public var identifier: PersistentIdentifier?
    /// The rule, in a few words.
    public var rule: String

    /// `Entity.property (identifier): rule`.
    public var description: String {
      "\(entity).\(property)\(identifier.map { " (\($0))" } ?? ""): \(rule)"
    }
  }

  /// What kind of failure this is.
  public var code: Code
  /// A sentence for a person.
  public var message: String
  /// Every violation a failed save found.
  public var violations: [Violation]
  /// Every conflict with other contexts' saves that refused a save.
  public var conflicts: [ModelConflict]
  /// The schema problem behind an error of code ``Code/schema``: the first class that could
  /// not be registered.
  public var schemaError: SchemaError?

  /// Makes an error.
  public init(
    _ code: Code, message: String, violations: [Violation] = [], conflicts: [ModelConflict] = [],
    schemaError: SchemaError? = nil
  ) {
    self.code = code
    self.message = message
    self.violations = violations
    self.conflicts = conflicts
    self.schemaError = schemaError
  }

  /// The message, then one line per violation or conflict.
  public var description: String {
    ([message] + violations.map { "  " + $0.description } + conflicts.map { "  \($0)" })
      .joined(separator: "\n")
  }
}
