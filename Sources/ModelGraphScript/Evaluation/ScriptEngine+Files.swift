import ModelGraphCore

extension ScriptEngine {
  func save(at location: SourceLocation) throws {
    try commitChanges(at: location)
    if let file { try writeSnapshot(file, at: location) }
  }

  func open(_ path: String, bind: Bool, at location: SourceLocation) throws {
    guard !session.hasChanges else {
      throw ScriptError(
        "there are unsaved changes; save or rollback before opening a file", at: location)
    }
    let version: StoreVersion?
    do {
      version = try SnapshotFile(path: path).load()
    } catch let error as SnapshotError {
      throw ScriptError("cannot open \(path): \(error)", at: location)
    }
    if let version {
      replaceStore(Store(loading: version))
    } else if bind {
      replaceStore(Store())
    } else {
      throw ScriptError("no snapshot file at \(path)", at: location)
    }
    bindFile(bind ? path : nil)
  }

  func snapshot(_ path: String?, at location: SourceLocation) throws {
    guard let path = path ?? file else {
      throw ScriptError("no file is open; write snapshot \"file.mgs\"", at: location)
    }
    try writeSnapshot(path, at: location)
  }

  private func writeSnapshot(_ path: String, at location: SourceLocation) throws {
    do {
      try SnapshotFile(path: path).save(store.version)
    } catch let error as SnapshotError {
      throw ScriptError("cannot write \(path): \(error)", at: location)
    }
  }
}
