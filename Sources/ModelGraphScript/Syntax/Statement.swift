public import ModelGraphCore

/// One statement of a script.
public struct Statement: Sendable {
  /// What the statement does.
  public enum Kind: Sendable {
    /// `entity Name [: Parent] { members }`.
    case entity(EntityDeclaration)
    /// `codable Name {field: Type, other: Type?, …}`: the shape of a Codable type that
    /// attributes declared `name: Name` store.
    case codable(String, CodableShape)
    /// `[let $name =] insert Entity { name: value, … }`.
    case insert(InsertStatement)
    /// `update Entity set name = value, … [where condition]`.
    case update(UpdateStatement)
    /// `delete Entity [where condition]` or `delete $variable`.
    case delete(DeleteStatement)
    /// `fetch [only] Entity[.column, column, …] [where …] [sort …] [limit n] [offset n]
    /// [prefetch …]`.
    case fetch(QueryStatement)
    /// `count [only] Entity [where …] [by class|attribute]` and `sum|min|max|avg Entity.attribute …`.
    case aggregate(AggregateStatement)
    /// `save`.
    case save
    /// `rollback`.
    case rollback
    /// `begin`: starts a transaction (requires no unsaved changes).
    case begin
    /// `commit`: saves the transaction's changes.
    case commit
    /// `open "file.mgs"`: loads a snapshot file and saves to it from then on.
    case open(String)
    /// `load "file.mgs"`: loads a snapshot file without binding it.
    case load(String)
    /// `snapshot "file.mgs"`: writes the saved state to a file.
    case snapshot(String?)
    /// `.explain fetch …` or `.explain count …`: the plan instead of the results.
    case explain(QueryStatement)
    /// `.watch fetch …`: prints the results, then again after every later statement whose
    /// save changes them.
    case watch(QueryStatement)
    /// `.name arguments`: any other dot-command, with the rest of its line.
    case dotCommand(String, String)
    /// `alter entity Name add|drop|rename …`: a lightweight change to a registered class.
    case alter(AlterStatement)
  }

  /// What the statement does.
  public var kind: Kind
  /// Where it starts.
  public var location: SourceLocation
}

/// `entity Name [: Parent] { … }`.
public struct EntityDeclaration: Sendable {
  /// The class name.
  public var name: String
  /// The parent class name.
  public var parent: String?
  /// Where the parent name is.
  public var parentLocation: SourceLocation?
  /// The members in order.
  public var members: [MemberDeclaration]
  /// `unique(a, b)` lines: attributes whose values together are unique.
  public var uniqueConstraints: [(names: [String], location: SourceLocation)] = []
  /// Where the name is.
  public var location: SourceLocation
}

/// `name: Type[?] options` inside an entity.
public struct MemberDeclaration: Sendable {
  /// The property name.
  public var name: String
  /// The type's name: a value type or an entity.
  public var typeName: String
  /// Whether the type was written in brackets (`[Type]`).
  public var isArray: Bool
  /// Whether the type ends with `?`.
  public var isOptional: Bool
  /// `unique`.
  public var isUnique = false
  /// `index` (ordered).
  public var isIndexed = false
  /// `preserve` (`preserveValueOnDeletion`).
  public var preservesValueOnDeletion = false
  /// `= value`.
  public var defaultValue: Expression?
  /// `inverse name`.
  public var inverse: String?
  /// `delete cascade|nullify|deny|noAction`.
  public var deleteRule: DeleteRule?
  /// `min n`.
  public var minimumCount: Int?
  /// `max n`.
  public var maximumCount: Int?
  /// Where the name is.
  public var location: SourceLocation
  /// Where the type is.
  public var typeLocation: SourceLocation
}

/// `[let $name =] insert Entity { name: value, … }`.
public struct InsertStatement: Sendable {
  /// The variable to bind, if any.
  public var variable: String?
  /// The class.
  public var entity: String
  /// Where the class name is.
  public var entityLocation: SourceLocation
  /// The values, in order.
  public var values: [(name: String, value: Expression, location: SourceLocation)]
}

/// `update Entity set name = value, … [where condition]`.
public struct UpdateStatement: Sendable {
  /// The objects changed.
  public var target: Target
  /// The assignments, in order.
  public var assignments: [(name: String, value: Expression, location: SourceLocation)]
}

/// `delete Entity [where …]` or `delete $variable`.
public struct DeleteStatement: Sendable {
  /// The objects deleted.
  public var target: Target
}

/// The objects a statement works on: a class (deep unless `only`) with a condition, or a
/// variable's object.
public enum Target: Sendable {
  /// Objects of a class.
  case query(QueryStatement)
  /// The object bound to a variable.
  case variable(String, SourceLocation)
}

/// `[only] Entity [where …] [sort …] [limit n] [offset n] [prefetch …]`.
public struct QueryStatement: Sendable {
  /// The class.
  public var entity: String
  /// Where the class name is.
  public var entityLocation: SourceLocation
  /// Whether only exactly the class is read (`only`).
  public var isExact = false
  /// The condition.
  public var condition: Expression?
  /// The sort keys.
  public var sort: [(path: Expression, ascending: Bool)] = []
  /// The number of objects skipped.
  public var offset: Int?
  /// The most objects returned.
  public var limit: Int?
  /// The relationships shown with each object.
  public var prefetch: [(name: String, location: SourceLocation)] = []
  /// The columns of a projection (`fetch Stay.name, trip.name`); empty for whole objects.
  public var columns: [Expression] = []
}

/// `count|sum|min|max|avg …`.
public struct AggregateStatement: Sendable {
  /// The function.
  public enum Function: String, Sendable, CaseIterable {
    /// The number of objects.
    case count
    /// The sum of an attribute.
    case sum
    /// The smallest value.
    case min
    /// The largest value.
    case max
    /// The average (a `Double`).
    case avg
  }

  /// The function.
  public var function: Function
  /// The objects aggregated.
  public var query: QueryStatement
  /// The attribute aggregated (`nil` for `count`).
  public var attribute: (name: String, location: SourceLocation)?
  /// The grouping: `class`, an attribute or to-one relationship, or a path through to-one
  /// relationships (`trip.name`).
  public var groupBy: (name: String, location: SourceLocation)?
}

/// `alter entity Name add member | drop name | rename old to new`.
public struct AlterStatement: Sendable {
  /// What changes.
  public enum Change: Sendable {
    /// `add name: Type [options]`: a new attribute.
    case add(MemberDeclaration)
    /// `drop name`: an attribute or relationship removed, with its values.
    case drop(String, SourceLocation)
    /// `rename old to new`: an attribute or relationship renamed, keeping its values.
    case rename(String, String, SourceLocation)
  }

  /// The class changed.
  public var entity: String
  /// Where the class name is.
  public var entityLocation: SourceLocation
  /// The change.
  public var change: Change
}
