internal import Foundation
internal import ModelGraphPostgreSQL

extension ModelConfiguration {
  /// Whether ``url`` names a PostgreSQL database (`postgresql://` or `postgres://`).
  public var isPostgreSQL: Bool {
    guard let scheme = url?.scheme?.lowercased() else { return false }
    return scheme == "postgresql" || scheme == "postgres"
  }
}

extension ModelContainer {
  /// Opens the PostgreSQL store at `url`: loads every stored object, brings the stored schema
  /// to the classes' (through the plan, or only when nothing but the layout differs), writes a
  /// migrated store back in one transaction, and starts listening for other processes' saves.
  static func openPostgreSQL(_ url: URL, loader: StoreLoader) throws -> Store {
    let opened = try PostgreSQLStore.open(url: url.absoluteString)
    do {
      let (store, changed) = try loader.load(opened.stored, path: Self.redacted(url))
      if changed, opened.stored != nil { try opened.store.rewrite(store.version) }
      opened.store.attach(to: store)
      return store
    } catch {
      opened.store.close()
      throw error
    }
  }

  /// `url` without its password, for messages.
  static func redacted(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      components.password != nil
    else { return url.absoluteString }
    components.password = "***"
    return components.string ?? url.absoluteString
  }
}
