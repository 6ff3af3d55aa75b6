extension Store {
  /// Records the shapes of Codable types that composite attributes store, by type name, in
  /// the catalog (a Swift container does this for its model classes); the file's schema
  /// carries them from the next save or checkpoint on.
  ///
  /// A shape already recorded for a name is replaced when it differs (the type changed).
  public func record(codableShapes shapes: [String: CodableShape]) {
    guard !shapes.isEmpty else { return }
    state.withLock { state in
      var catalog = state.version.catalog
      for (name, shape) in shapes where catalog.codableShapes[name] != shape {
        catalog.codableShapes[name] = shape
      }
      guard catalog.codableShapes != state.version.catalog.codableShapes else { return }
      // Every version, shown or still to be shown, carries the shapes.
      func withShapes(_ version: StoreVersion) -> StoreVersion {
        var shaped = version.catalog
        shaped.codableShapes = catalog.codableShapes
        return StoreVersion(number: version.number, catalog: shaped, tables: version.tables)
      }
      state.version = withShapes(state.version)
      state.visible = withShapes(state.visible)
      markVisible(state.visible)
      for index in state.pending.indices {
        state.pending[index].version = withShapes(state.pending[index].version)
      }
    }
  }
}
