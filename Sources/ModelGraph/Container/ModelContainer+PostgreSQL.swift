internal import Foundation
import ModelGraphCore
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
  ///
  /// - Returns: the store, and the changes migrated without a plan.
  static func openPostgreSQL(_ url: URL, loader: StoreLoader) throws -> (
    store: Store, migrated: [SchemaDifference]
  ) {
    let opened = try PostgreSQLStore.open(url: url.absoluteString)
    do {
      let loaded = try loader.load(opened.stored, path: Self.redacted(url))
      if loaded.changed, opened.stored != nil { try opened.store.rewrite(loaded.store.version) }
      opened.store.attach(to: loaded.store)
      return (loaded.store, loaded.automaticMigration)
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
