// A reference to model objects declared with @Attribute fails to compile with a message that
// names the fix, instead of a message about PersistentValue.

extension Attribute {
  /// Unavailable: a reference to a model object is a relationship.
  @available(
    *, unavailable,
    message:
      "a reference to a model object is a relationship: declare it '@Relationship var name: Destination?'"
  )
  public init<Destination: PersistentModel>(
    _ options: Option..., originalName: String? = nil, hashModifier: String? = nil
  ) where Value == Destination? {
    fatalError("unavailable")
  }

  /// Unavailable: a reference to a model object is a relationship.
  @available(
    *, unavailable,
    message:
      "a reference to a model object is a relationship: declare it '@Relationship var name: Destination?'"
  )
  public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil)
  where Value: PersistentModel {
    fatalError("unavailable")
  }

  /// Unavailable: model objects are held by a to-many relationship.
  @available(
    *, unavailable,
    message:
      "model objects are held by a to-many relationship: declare it '@Relationship var name: [Destination]'"
  )
  public init<Element: PersistentModel>(
    _ options: Option..., originalName: String? = nil, hashModifier: String? = nil
  ) where Value == [Element] {
    fatalError("unavailable")
  }
}
