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
  /// to the classes' (through the plan, or without one when no change needs a decision),
  /// writes a migrated store back in one transaction, and starts listening for other
  /// processes' saves. With `residency=fetched` no object is loaded: the stages run in the
  /// database as DDL and data statements, in one transaction, with a custom stage's code
  /// fetching and saving through that transaction.
  ///
  /// - Returns: the store, and the changes migrated without a plan.
  static func openPostgreSQL(_ url: URL, loader: StoreLoader) throws -> (
    store: Store, migrated: [SchemaDifference]
  ) {
    let opened = try PostgreSQLStore.open(url: url.absoluteString)
    do {
      let path = Self.redacted(url)
      let inDatabase = opened.store.keepsOnlyFetched
      if inDatabase, let stored = opened.stored,
        let planned = try loader.stagesInDatabase(from: stored, path: path)
      {
        try opened.store.migrate(planned.steps)
        opened.store.attach(to: planned.store)
        return (planned.store, [])
      }
      let loaded = try loader.load(opened.stored, path: path)
      if loaded.changed, opened.stored != nil {
        if inDatabase {
          try opened.store.migrate(
            loaded.steps.map {
              PostgreSQLMigrationStep(
                label: $0.label, source: $0.source, target: $0.target, defaults: $0.defaults)
            })
        } else {
          try opened.store.rewrite(loaded.store.version)
        }
      }
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
