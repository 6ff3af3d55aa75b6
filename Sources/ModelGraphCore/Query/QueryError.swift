/// A query the engine cannot plan (an unknown class or property, operands of the wrong type), or
/// arithmetic that failed on a row while a plan ran.
///
/// A planning problem the typed API never shows to a user: it falls back to evaluating the
/// `#Predicate` on the candidate objects instead. An arithmetic fault
/// (``Code/arithmeticOverflow``, ``Code/divisionByZero``) is thrown by the plan's run
/// (``QueryPlan/keys(residual:)``, ``QueryPlan/count(residual:)``) and is never left to
/// Foundation, which would stop the process: the typed API throws it as a `ModelError` of the
/// same code. The runner reports both.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem this is.
  public enum Code: String, Sendable, Hashable {
    /// A class name that is not in the catalog.
    case unknownEntity
    /// An attribute or relationship that the class does not have.
    case unknownProperty
    /// Operands whose types do not fit the operation.
    case typeMismatch
    /// An operation the engine does not evaluate (it is left to the front end).
    case unsupported
    /// Arithmetic in the condition gave a result out of its type's range on a row the plan
    /// tested: an integer `+`, `-`, `*`, `/` or `%` that overflows (`Int.min / -1` too), the
    /// negation of `Int.min`, or a `Decimal` result out of `Decimal`'s range. Swift would stop
    /// the process; the query throws instead, and returns nothing.
    ///
    /// Only rows the plan tests can fault, as in SQL databases: a row an index leaves out, or
    /// one that an earlier operand of `&&` or `||` decides, is not computed on, so the same
    /// data may fault under one plan and not another. Conjuncts are tested in the order
    /// written once arithmetic can fault, so a guard written first (`$0.d != 0 && $0.n / $0.d
    /// > 1`) keeps the rows it excludes from being computed on.
    case arithmeticOverflow
    /// Arithmetic in the condition divided by zero on a row the plan tested: an integer `/` or
    /// `%`, or a `Decimal` `/`. As for ``arithmeticOverflow``, only rows the plan tests fault.
    case divisionByZero
  }

  /// What kind of problem this is.
  public var code: Code
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// Whether the error is an arithmetic fault met while a plan ran
  /// (``Code/arithmeticOverflow`` or ``Code/divisionByZero``), not a problem of planning.
  public var isArithmeticFault: Bool { code == .arithmeticOverflow || code == .divisionByZero }
}
