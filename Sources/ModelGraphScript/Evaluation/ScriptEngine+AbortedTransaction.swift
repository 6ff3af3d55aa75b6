extension ScriptEngine {
  /// After a failed statement rolled back a `begin` … `commit` block, the block's remaining
  /// statements are refused, so none of them runs outside the transaction it was written in:
  /// `rollback` ends the block, `commit` ends it with an error (nothing was committed), and
  /// `.quit` still leaves.
  func skipInAbortedTransaction(_ statement: Statement) throws {
    switch statement.kind {
    case .rollback:
      abortedTransaction = false
    case .commit:
      abortedTransaction = false
      throw ScriptError(
        "the transaction was rolled back after an error; nothing was committed",
        at: statement.location)
    default:
      guard !statement.isQuit else { return }
      throw ScriptError(
        "the transaction was rolled back after an error; its statements are skipped until its "
          + "commit or rollback",
        at: statement.location)
    }
  }
}
