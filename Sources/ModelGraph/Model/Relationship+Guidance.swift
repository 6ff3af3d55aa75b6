public import ModelGraphCore

// Declarations SwiftData accepts and ModelGraph does not: each fails to compile with a message
// that names the fix, instead of a message about generic requirements.

extension Relationship {
  /// Unavailable: a to-many relationship starts empty and takes no initial value.
  @available(
    *, unavailable,
    message: "a to-many @Relationship starts empty and takes no initial value: remove '= []'"
  )
  public init<Element: PersistentModel>(
    wrappedValue: [Element], deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value == [Element] {
    fatalError("unavailable")
  }

  /// Unavailable: a to-many relationship is an array, not an optional array.
  @available(
    *, unavailable,
    message:
      "a to-many @Relationship is not optional: declare it '[Element]' without '?'; it starts empty"
  )
  public init<Element: PersistentModel>(
    deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value == [Element]? {
    fatalError("unavailable")
  }

  /// Unavailable: a to-many relationship is an array, not an optional array, and starts empty.
  @available(
    *, unavailable,
    message:
      "a to-many @Relationship is not optional and takes no initial value: declare it '[Element]' without '?' or '= []'; it starts empty"
  )
  public init<Element: PersistentModel>(
    wrappedValue: [Element]?, deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value == [Element]? {
    fatalError("unavailable")
  }

  /// Unavailable: a to-one relationship is optional.
  @available(
    *, unavailable,
    message:
      "a to-one @Relationship is optional: declare it 'Destination?'; pass minimumModelCount: 1 to require an object when saving"
  )
  public init(
    deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: @autoclosure @escaping () -> AnyKeyPath? = nil
  ) where Value: PersistentModel {
    fatalError("unavailable")
  }
}
