import ModelGraphCore
import ModelGraphPostgreSQL

extension ScriptEngine {
  /// Publishes the changes; on an open file each save appends one record to its journal
  /// (durable when this returns), and classes declared since the last save are made durable
  /// with a checkpoint when the save has no objects to carry them.
  ///
  /// After `alter entity` the store is a new one that no journal records: the save commits in
  /// memory, then writes the whole store as the file's new snapshot with a fresh journal, so the
  /// file holds the old schema and data or the new ones, never a mix.
  func save(at location: SourceLocation) throws {
    do {
      let adopting = openedFile.map { !$0.holds(store) } ?? false
      if adopting, let openedFile, openedFile.journal.isReadOnly {
        throw ScriptError(
          "save failed, nothing was saved: \(file ?? openedFile.files.snapshot.path) was opened"
            + " read-only", at: location)
      }
      try commitChanges(at: location)
      if adopting, let openedFile {
        try openedFile.adopt(store)
      } else if let openedFile, !openedFile.journal.isReadOnly,
        store.catalog.entities.count > openedFile.journal.knownEntityCount
      {
        try openedFile.checkpoint(store)
      }
    } catch let error as JournalError {
      throw ScriptError("save failed: \(error)", at: location)
    } catch let error as SnapshotError {
      throw ScriptError("save failed: \(error)", at: location)
    } catch let error as PostgreSQLError {
      throw ScriptError("save failed: \(error)", at: location)
    }
  }

  func open(_ path: String, bind: Bool, at location: SourceLocation) throws {
    guard !session.hasChanges else {
      throw ScriptError(
        "there are unsaved changes; save or rollback before opening a file", at: location)
    }
    if Self.isPostgreSQL(path) { return try openPostgreSQL(path, at: location) }
    let opened: (OpenedStoreFile?, Store)
    do {
      // `load` reads the files without taking them; `open` locks them unless read-only.
      opened = try OpenedStoreFile.open(
        path, readOnly: readOnly || !bind, create: bind, checkpointThreshold: checkpointThreshold)
    } catch let error as SnapshotError where error.code == .locked {
      throw ScriptError(
        "cannot open \(path): locked: another process holds the store; "
          + "`modelgraph --read-only FILE` reads it", at: location)
    } catch let error as SnapshotError {
      throw ScriptError("cannot open \(path): \(error)", at: location)
    } catch let error as JournalError {
      throw ScriptError("cannot open \(path): \(error)", at: location)
    }
    guard let file = opened.0 else {
      throw ScriptError("no snapshot file at \(path)", at: location)
    }
    if bind {
      openedFile = nil
      replaceStore(opened.1)
      openedFile = file
    } else {
      // A loaded copy is not bound: it lives in memory and saves append nowhere.
      opened.1.attach(nil)
      replaceStore(opened.1)
      openedFile = nil
    }
    bindFile(bind ? path : nil)
  }

  func snapshot(_ path: String?, at location: SourceLocation) throws {
    guard let path = path ?? file else {
      throw ScriptError("no file is open; write snapshot \"file.mgs\"", at: location)
    }
    do {
      if path == file, let openedFile {
        // A store `alter entity` replaced becomes the file's (its saves then go to the file).
        try openedFile.holds(store) ? openedFile.checkpoint(store) : openedFile.adopt(store)
      } else {
        // Another store's files: written as a whole new pair, under their lock.
        let target = StoreFiles(path: path)
        let token = try target.io.lock(path + ".lock")
        defer { target.io.unlock(token) }
        try target.overwrite(with: store.version, history: store.history.kept())
      }
    } catch let error as SnapshotError {
      throw ScriptError("cannot write \(path): \(error)", at: location)
    } catch let error as JournalError {
      throw ScriptError("cannot write \(path): \(error)", at: location)
    }
  }
}
