extension ModelContext {
  /// Posted through `NotificationCenter.default` when a context is about to save, with the
  /// context as the object and no `userInfo` (as SwiftData's).
  public static let willSave = Notification.Name("ModelContextWillSave")

  /// Posted through `NotificationCenter.default` after a context's save published, with the
  /// context as the object; `userInfo` holds `[PersistentIdentifier]` arrays under the raw
  /// values of ``NotificationKey`` (as SwiftData's).
  ///
  /// A context posts only for its own saves; to see every context's (and the runner's) saves
  /// in commit order, iterate ``ModelContainer/changes(bufferingNewest:)``.
  public static let didSave = Notification.Name("ModelContextDidSave")

  /// The keys of a ``didSave`` notification's `userInfo`.
  public enum NotificationKey: String, Sendable {
    /// The `[PersistentIdentifier]` of the objects the save inserted.
    case insertedIdentifiers
    /// The `[PersistentIdentifier]` of the saved objects the save changed.
    case updatedIdentifiers
    /// The `[PersistentIdentifier]` of the objects the save deleted.
    case deletedIdentifiers
  }

  /// The name this context's saves carry as their author (SwiftData's `ModelContext.author`);
  /// it shows in ``CommittedChange/author``.
  public var author: String? {
    get { session.author }
    set { session.author = newValue }
  }

  func postWillSave() {
    NotificationCenter.default.post(name: Self.willSave, object: self)
  }

  func postDidSave() {
    let change = session.takeLastChange()
    // Filled key by key: a dictionary literal builds and destroys an array of key-value pairs
    // through generic code on every save. Room for 6 keys (8 buckets) for the 3: a key whose
    // bucket another holds is compared with it by `AnyHashable.==`, about 2,400 instructions
    // through dynamic casts, and 3 keys in 4 buckets (the room for 3) met about 2 such
    // collisions a save (hashing's per-process seed makes the number vary from run to run).
    // Room for 24 cost more to allocate than the collisions it saved.
    var userInfo = [AnyHashable: Any](minimumCapacity: 6)
    userInfo[AnyHashable(NotificationKey.insertedIdentifiers.rawValue)] = change?.inserted ?? []
    userInfo[AnyHashable(NotificationKey.updatedIdentifiers.rawValue)] =
      change?.updated.map(\.identifier) ?? []
    userInfo[AnyHashable(NotificationKey.deletedIdentifiers.rawValue)] =
      change?.deleted.map(\.identifier) ?? []
    NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: userInfo)
  }
}
