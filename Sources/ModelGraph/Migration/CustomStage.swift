import ModelGraphCore

/// Runs one custom stage: a read-only context on the old version's data and classes, a
/// context on the new version's classes holding what a lightweight stage carries over, the
/// closure, then the checks and the save.
struct CustomStage {
  let label: String
  let old: ModelSchema
  let new: ModelSchema
  let migrate: (ModelContext, ModelContext) throws -> Void

  /// The new version's data.
  ///
  /// - Throws: What the closure or the new context's save throws, or ``MigrationError`` when
  ///   the closure saved the old context, or left an attribute unset that the stage owes.
  func run(on current: StoreVersion) throws -> StoreVersion {
    let prepared = try current.migrated(to: new.catalog, defaults: new.defaults, mode: .custom)
    let oldStore = Store(loading: current)
    let newStore = Store(loading: prepared.version)
    let oldContext = ModelContext(try ModelContainer(store: oldStore, types: old.classes))
    let newContext = ModelContext(try ModelContainer(store: newStore, types: new.classes))
    try migrate(oldContext, newContext)
    guard oldStore.version.number == current.number else {
      throw MigrationError(
        .incompleteCustomStage,
        message: "the \(label) saved its old context, which is read-only")
    }
    if !prepared.unsetAttributes.isEmpty {
      guard newStore.version.number == prepared.version.number else {
        throw MigrationError(
          .incompleteCustomStage,
          message: "the \(label) saved its new context itself while it owed values of "
            + describe(prepared.unsetAttributes, in: prepared.version)
            + "; let the stage save it when the closure returns")
      }
      try checkSet(prepared, session: newContext.session)
    }
    try newContext.save()
    return newStore.version
  }

  /// Every live object must have had each owed attribute written (or been deleted).
  private func checkSet(_ prepared: MigratedVersion, session: Session) throws {
    let changes = Dictionary(
      session.changeSet.map { ($0.entity, $0) }, uniquingKeysWith: { first, _ in first })
    var details: [String] = []
    for owed in prepared.unsetAttributes {
      let table = prepared.version.tables[owed.entity]
      let change = changes[owed.entity]
      let written = Set(
        change?.updatedRows.filter { $0.slots.contains(owed.slot) }.map(\.row) ?? [])
      let deleted = Set(change?.deletedKeys.map { Int($0.row) } ?? [])
      var missing: [Int] = []
      table.forEachLiveRow { row in
        if !written.contains(row) && !deleted.contains(row) { missing.append(row) }
      }
      guard let first = missing.first else { continue }
      let entity = table.entity
      let name = entity.attributes[owed.slot].name
      details.append(
        "\(entity.name).\(name) on \(missing.count) object\(missing.count == 1 ? "" : "s") "
          + "(first \(entity.name)/\(first).\(table.generation(of: first)))")
    }
    guard details.isEmpty else {
      throw MigrationError(
        .incompleteCustomStage,
        message: "the \(label) left unset: " + details.joined(separator: ", "))
    }
  }

  private func describe(_ slots: [MigrationSlot], in version: StoreVersion) -> String {
    slots.map { slot in
      let entity = version.catalog.entities[slot.entity]
      return "\(entity.name).\(entity.attributes[slot.slot].name)"
    }.joined(separator: ", ")
  }
}
