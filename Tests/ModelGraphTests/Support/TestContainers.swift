import ModelGraph

/// A container for `types` that lives only in memory.
func makeInMemoryContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
  try ModelContainer(for: types, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
}

/// A fresh context on a new in-memory container for `types`.
func makeInMemoryContext(_ types: any PersistentModel.Type...) throws -> ModelContext {
  ModelContext(
    try ModelContainer(
      for: types, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]))
}
