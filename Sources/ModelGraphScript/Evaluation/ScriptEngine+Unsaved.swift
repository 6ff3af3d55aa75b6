/// Nothing is lost silently: the runner works as a transaction that `save` ends (not as an
/// autocommitting shell), so leaving with unsaved changes, or writing a snapshot that leaves
/// them out, is said out loud.
extension ScriptEngine {
  /// The unsaved changes in words (`2 inserted and 1 deleted objects`, `the altered schema of
  /// Trip`), or `nil` when there are none.
  public var unsavedChangesSummary: String? {
    let altered =
      alteredClasses.isEmpty
      ? nil : "the altered schema of \(alteredClasses.joined(separator: ", "))"
    guard let objects = unsavedObjectsSummary else { return altered }
    return objects + (altered.map { " and \($0)" } ?? "")
  }

  /// The session's unsaved object changes in words, or `nil` when there are none.
  var unsavedObjectsSummary: String? {
    guard session.hasChanges else { return nil }
    var inserted = 0
    var updated = 0
    var deleted = 0
    for changes in session.changeSet {
      inserted += changes.insertedRows.count
      updated += Set(changes.updatedRows.map(\.row)).union(changes.relationshipRows).count
      deleted += changes.deletedKeys.count
    }
    let parts = [(inserted, "inserted"), (updated, "updated"), (deleted, "deleted")]
      .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let total = inserted + updated + deleted
    let list =
      parts.count > 1
      ? parts.dropLast().joined(separator: ", ") + " and " + parts.last! : parts.first ?? "0"
    return "\(list) object\(total == 1 ? "" : "s")"
  }

  /// Whether the session may end now. With ``asksBeforeDiscarding`` and unsaved changes, the
  /// first request warns and refuses; a second one in a row agrees.
  public func mayQuit(at location: SourceLocation = SourceLocation(line: 1, column: 1)) -> Bool {
    guard asksBeforeDiscarding, let summary = unsavedChangesSummary, !warnedAboutQuitting else {
      return true
    }
    warnedAboutQuitting = true
    warn(
      "unsaved changes (\(summary)); save, \(session.hasChanges ? "or rollback, " : "")or .quit"
        + " (Ctrl-D) again to discard them",
      at: location)
    return false
  }

  /// The error a script that ends with unsaved changes gets, or `nil`: only when a file is
  /// open, since without one nothing a script does outlives it.
  public var unsavedChangesAtEnd: String? {
    guard let file, let summary = unsavedChangesSummary else { return nil }
    return "the script ended with unsaved changes (\(summary)) to \(file); end it with save"
      + (session.hasChanges ? ", or rollback to drop them" : "")
  }

  /// Warns when a snapshot written now leaves out unsaved changes (an altered schema is in it:
  /// the store itself changed).
  func warnIfSnapshotMissesChanges(_ path: String?, at location: SourceLocation) {
    guard let summary = unsavedObjectsSummary, let path = path ?? file else { return }
    warn(
      "\(path) holds the saved state only, without the unsaved changes (\(summary)); save"
        + " first to include them", at: location)
  }

  /// Reports `message` as a warning at `location`.
  func warn(_ message: String, at location: SourceLocation) {
    warningHandler?(message, location)
  }
}
