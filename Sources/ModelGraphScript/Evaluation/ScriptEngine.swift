import Foundation
public import ModelGraphCore

/// The state a script or REPL works on, and the statements' effects: a store, a session with
/// the unsaved changes, variables, the output mode, and the snapshot file bound by `open`.
///
/// Results go to ``output``; a failing statement throws ``ScriptError`` and changes nothing
/// (an `insert`, `update` or `delete` applies all of its changes or none).
public final class ScriptEngine {
  /// Where results are written (standard output by default).
  public var output: (String) -> Void
  /// The store.
  public private(set) var store: Store
  /// The session holding unsaved changes.
  public private(set) var session: Session
  /// The output mode.
  public var mode: OutputMode = .table
  /// Whether each statement's duration is printed.
  public var timing = false
  /// Whether tables and CSV start with a header (`.headers on|off`).
  public var showsHeaders = true
  /// Whether each statement is printed before it runs (`.echo on|off`).
  public var echoes = false
  /// Runs a script file for `.read`: its bytes and path; the runner sets it.
  var scriptReader: ((Data, String) -> Bool)?
  /// How many `.read` files are running inside each other.
  var readDepth = 0
  /// Where output goes after `.output FILE` or `.once FILE`, if not to ``output``.
  var redirection: Redirection?
  /// The attributes `.display` chose to name objects of a class in results (empty: none).
  var displayAttributes: [String: String] = [:]
  /// Whether Ctrl-C (``Interrupt/request()``) stops a running statement; the REPL turns it on.
  public var handlesInterrupts = false
  /// Called when a statement starts, after a pending interrupt is cleared (for tests).
  var onStatementStart: (() -> Void)?
  /// Set by `.quit`.
  public private(set) var shouldQuit = false
  /// The snapshot file `open` bound; `save` appends to its journal.
  public private(set) var file: String?
  /// Whether `open` reads files without locking them, and saves are refused.
  public var readOnly = false
  /// The bound file's journal and lock.
  var openedFile: OpenedStoreFile?
  /// The journal size past which an opened file is checkpointed in the background.
  var checkpointThreshold = 64 << 20
  var schema = ScriptSchema()
  var variables: [String: ObjectKey] = [:]
  var inTransaction = false
  /// Whether a failed statement rolled back the open transaction, whose remaining statements
  /// are skipped until its `commit` or `rollback` (as PostgreSQL does).
  var abortedTransaction = false
  /// The history version `.changes` without `since` starts after.
  var changesShown: UInt64 = 0
  /// The queries `.watch` reprints, with what each printed last.
  var watches: [WatchedQuery] = []
  /// The store version the watches were last run on.
  var watchedVersion: UInt64 = 0

  /// Whether `.quit` with unsaved changes must be given twice (the REPL asks; scripts do not).
  public var asksBeforeDiscarding = false
  /// Where warnings go, with the statement's position; the runner sets it.
  public var warningHandler: ((String, SourceLocation) -> Void)?
  /// Whether the last statement was a `.quit` that warned about unsaved changes.
  var warnedAboutQuitting = false
  /// The classes `alter entity` changed since the last save.
  var alteredClasses: [String] = []
  /// The shapes of Codable types inferred from the stored values, with the store version and
  /// the statement they were read in, and whether no unsaved change was read.
  var shapeCache: [String: (version: UInt64, statement: Int, clean: Bool, shape: CompositeShape)] =
    [:]
  /// Counts the statements run, for caches that last one statement.
  var statementNumber = 0

  /// An engine with an empty in-memory store.
  public init(output: @escaping (String) -> Void = { print($0, terminator: "") }) {
    self.output = output
    store = Store()
    session = Session(store: store)
  }

  /// The catalog covering every registered class.
  var catalog: SchemaCatalog {
    let count = store.catalog.entities.count
    return count == 0 ? session.catalog : session.catalog(covering: count - 1)
  }

  /// Runs one statement.
  ///
  /// - Throws: ``ScriptError`` with the position to blame.
  public func execute(_ statement: Statement) throws {
    statementNumber += 1
    if handlesInterrupts { Interrupt.reset() }
    if !statement.isQuit { warnedAboutQuitting = false }
    onStatementStart?()
    let start = ContinuousClock.now
    // `.once FILE` sends the output of the statement after it to the file.
    let endsOnce = redirection?.isOnce == true && !statement.isOnce
    defer { if endsOnce { endRedirection() } }
    do {
      try run(statement)
      try reprintWatches(after: statement)
    } catch let error as EvaluationError {
      throw ScriptError(error.message, at: statement.location)
    } catch let error as QueryError {
      throw ScriptError(error.message, at: statement.location)
    }
    if timing {
      let elapsed = ContinuousClock.now - start
      let milliseconds =
        Double(elapsed.components.attoseconds) / 1e15
        + Double(elapsed.components.seconds) * 1000
      output("time: \(String(format: "%.3f", milliseconds)) ms\n")
    }
  }

  /// Ends a transaction a failed statement interrupted: its changes are discarded.
  ///
  /// - Returns: Whether a transaction was open.
  @discardableResult
  public func abortTransaction() -> Bool {
    guard inTransaction else { return false }
    inTransaction = false
    abortedTransaction = true
    session.rollback()
    return true
  }

  private func run(_ statement: Statement) throws {
    if abortedTransaction { try skipInAbortedTransaction(statement) }
    if case .entity(let declaration) = statement.kind {
      schema.pending.append(declaration)
      return
    }
    try schema.flush(into: store)
    switch statement.kind {
    case .entity: break
    case .codable(let name, let shape): try declareCodable(name, shape, at: statement.location)
    case .insert(let insert): try self.insert(insert)
    case .update(let update): try self.update(update, at: statement.location)
    case .delete(let delete): try self.delete(delete, at: statement.location)
    case .fetch(let query): try fetch(query)
    case .aggregate(let aggregate): try self.aggregate(aggregate)
    case .explain(let query): try explain(query)
    case .watch(let query): try watch(query)
    case .save:
      try save(at: statement.location)
      alteredClasses = []
    case .alter(let alter): try self.alter(alter)
    case .rollback:
      inTransaction = false
      session.rollback()
    case .begin:
      guard !inTransaction else {
        throw ScriptError(
          "a transaction is already open; commit or rollback first", at: statement.location)
      }
      guard !session.hasChanges else {
        throw ScriptError(
          "there are unsaved changes; save or rollback before begin", at: statement.location)
      }
      inTransaction = true
    case .commit:
      guard inTransaction else {
        throw ScriptError("no transaction is open; begin one first", at: statement.location)
      }
      try save(at: statement.location)
      alteredClasses = []
      inTransaction = false
    case .open(let path):
      try checkNoAlteredSchema(at: statement.location)
      try open(path, bind: true, at: statement.location)
      alteredClasses = []
    case .load(let path):
      try checkNoAlteredSchema(at: statement.location)
      try open(path, bind: false, at: statement.location)
      alteredClasses = []
    case .snapshot(let path):
      try snapshot(path, at: statement.location)
      warnIfSnapshotMissesChanges(path, at: statement.location)
      // The snapshot holds the store's schema, altered or not; an open file still lacks it
      // when the snapshot went elsewhere.
      if openedFile?.holds(store) ?? true { alteredClasses = [] }
    case .dotCommand(let name, let arguments):
      try dotCommand(name, arguments, at: statement.location)
    }
  }

  /// Registers entity declarations that are still pending (at the end of a script).
  ///
  /// - Throws: ``ScriptError`` as the schema statements would.
  public func finish() throws {
    try schema.flush(into: store)
  }

  /// Replaces the store (after loading a file).
  func replaceStore(_ newStore: Store) {
    store = newStore
    session = Session(store: newStore)
    shapeCache = [:]
    schema = ScriptSchema()
    variables = [:]
    inTransaction = false
    abortedTransaction = false
  }

  /// Replaces the store with a migrated version of it: the objects keep their identifiers,
  /// so variables, the bound file and the declared defaults and indexes stay.
  func replaceStoreKeepingSession(_ newStore: Store) {
    store = newStore
    session = Session(store: newStore)
    shapeCache = [:]
  }

  func bindFile(_ path: String?) { file = path }

  func quit() { shouldQuit = true }

  /// Throws when Ctrl-C was pressed and this engine handles interrupts.
  func checkInterrupt() throws {
    if handlesInterrupts { try Interrupt.check() }
  }

  /// The entity called `name`, or an error at `location`.
  func entity(_ name: String, at location: SourceLocation) throws -> ResolvedEntity {
    guard let entity = catalog.entity(named: name) else {
      let known = catalog.entities.map(\.name).sorted()
      let hint =
        known.isEmpty ? "no class is declared yet" : "known: " + known.joined(separator: ", ")
      throw ScriptError("unknown class '\(name)' (\(hint))", at: location)
    }
    return entity
  }

  /// An evaluator over the session.
  var evaluator: Evaluator {
    Evaluator(session: session, catalog: catalog, interruptible: handlesInterrupts) {
      [unowned self] entity, condition in
      try keys(
        entity: entity, isExact: false, condition: condition, sort: [], offset: 0, limit: nil)
    }
  }

  /// The identifier text of an object.
  func identifier(_ key: ObjectKey) -> String {
    "\(catalog.entities[Int(key.entity)].name)/\(key.row).\(key.generation)"
  }
}

extension Statement {
  /// Whether this is `.quit` or `.exit`.
  var isQuit: Bool {
    guard case .dotCommand(let name, _) = kind else { return false }
    return name == "quit" || name == "exit"
  }

  /// Whether this is `.once`.
  var isOnce: Bool {
    guard case .dotCommand(let name, _) = kind else { return false }
    return name == "once"
  }
}
