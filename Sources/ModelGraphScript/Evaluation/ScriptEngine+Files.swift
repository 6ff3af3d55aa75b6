import ModelGraphCore
import ModelGraphPostgreSQL

extension ScriptEngine {
  /// Publishes the changes; on an open file each save appends one record to its journal
  /// (durable when this returns), and classes declared since the last save are made durable
  /// with a checkpoint when the save has no objects to carry them.
  func save(at location: SourceLocation) throws {
    do {
      try commitChanges(at: location)
      if let openedFile, !openedFile.journal.isReadOnly,
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
        try openedFile.checkpoint(store)
      } else {
        // Another store's files: written as a whole new pair, under their lock.
        let target = StoreFiles(path: path)
        let token = try target.io.lock(path + ".lock")
        defer { target.io.unlock(token) }
        try target.overwrite(with: store.version)
      }
    } catch let error as SnapshotError {
      throw ScriptError("cannot write \(path): \(error)", at: location)
    } catch let error as JournalError {
      throw ScriptError("cannot write \(path): \(error)", at: location)
    }
  }
}
