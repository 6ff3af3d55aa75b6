// Types an app may well declare, named as ModelGraphCore's engine types. The consumer imports
// this module beside ModelGraph and uses the names unqualified: that compiles only while
// `import ModelGraph` keeps the engine types out of the app's namespace.

/// An app's table.
public struct Table {
  /// The table's name.
  public var name: String
  /// A table.
  public init(name: String) { self.name = name }
}

/// An app's session.
public struct Session {
  /// The signed-in user.
  public var user: String
  /// A session.
  public init(user: String) { self.user = user }
}

/// An app's store.
public struct Store {
  /// The store's city.
  public var city: String
  /// A store.
  public init(city: String) { self.city = city }
}

/// An app's column.
public struct Column {
  /// The column's title.
  public var title: String
  /// A column.
  public init(title: String) { self.title = title }
}
