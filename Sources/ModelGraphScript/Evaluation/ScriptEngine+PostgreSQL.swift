import ModelGraphCore
import ModelGraphPostgreSQL

extension ScriptEngine {
  /// Whether `path` names a PostgreSQL database rather than a snapshot file.
  static func isPostgreSQL(_ path: String) -> Bool {
    path.hasPrefix("postgresql://") || path.hasPrefix("postgres://")
  }

  /// Opens the PostgreSQL store at `url`: its classes and objects become the runner's store,
  /// each `save` is one transaction there, and other processes' saves arrive as they commit.
  func openPostgreSQL(_ url: String, at location: SourceLocation) throws {
    let store: Store
    do {
      let opened = try PostgreSQLStore.open(url: url)
      if opened.store.keepsOnlyFetched {
        opened.store.close()
        throw ScriptError(
          "cannot open \(url): the runner keeps every object in memory; drop residency=fetched",
          at: location)
      }
      store = opened.stored.map { Store(loading: $0) } ?? Store()
      opened.store.attach(to: store)
    } catch let error as PostgreSQLError {
      throw ScriptError("cannot open \(url): \(error)", at: location)
    }
    openedFile = nil
    replaceStore(store)
    bindFile(nil)
  }
}
