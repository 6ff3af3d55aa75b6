/// The line editor's behaviour without a terminal: what each ``Key`` does to the line, the
/// history position, the reverse search and completion, and what the screen line shows.
struct LineEditState {
  /// What handling a key asks the terminal side to do.
  enum Outcome: Equatable {
    /// Redraw the line and read on.
    case editing
    /// The line is finished.
    case submit(String)
    /// Ctrl-C: the line is dropped.
    case cancel
    /// Ctrl-D on an empty line.
    case end
    /// Ctrl-L: clear the screen, then redraw.
    case clearScreen
    /// Show these completions under the line, then redraw.
    case list([String])
  }

  /// A reverse incremental search in progress.
  private struct Search {
    var query = ""
    /// The history entry found, if any.
    var match: Int?
    /// The line before the search, restored by Ctrl-G.
    var original: EditBuffer
  }

  /// The line.
  private(set) var buffer = EditBuffer()
  /// Lines a paste brought beyond the first, waiting to be read as if typed.
  private(set) var queuedLines: [String] = []
  private let history: [String]
  private var historyIndex: Int
  private var draft = EditBuffer()
  private var killed = ""
  private var search: Search?
  private let complete: (String) -> Completer.Completion

  /// A state over the `history` entries (oldest first), starting with `text`, completing with
  /// `complete`.
  init(
    history: [String], text: String = "",
    complete: @escaping (String) -> Completer.Completion = { _ in .init(start: 0, candidates: []) }
  ) {
    self.history = history
    historyIndex = history.count
    buffer = EditBuffer(text)
    self.complete = complete
  }

  /// Whether a reverse search is in progress.
  var isSearching: Bool { search != nil }

  /// What the screen line shows after `prompt`, and the cursor's offset in it. A line wider
  /// than `width` columns scrolls sideways to keep the cursor in view, so it never wraps.
  func display(prompt: String, width: Int = .max) -> (text: String, cursor: Int) {
    let text: String
    let cursor: Int
    if let search {
      let head = "(reverse-i-search)'\(search.query)': "
      let line = search.match.map { history[$0] } ?? ""
      let offset =
        line.range(of: search.query).map {
          line.distance(from: line.startIndex, to: $0.lowerBound)
        } ?? 0
      (text, cursor) = (head + line, head.count + offset)
    } else {
      (text, cursor) = (prompt + buffer.text, prompt.count + buffer.cursor)
    }
    // One column stays free so the cursor at the end does not wrap.
    let visible = max(width - 1, 1)
    guard text.count > visible else { return (text, cursor) }
    let start = max(0, min(cursor - visible + 1, text.count - visible))
    let window = String(Array(text)[start..<min(start + visible, text.count)])
    return (window, cursor - start)
  }

  /// Applies `key`.
  mutating func handle(_ key: Key) -> Outcome {
    if search != nil, let outcome = handleInSearch(key) { return outcome }
    switch key {
    case .text(let text): buffer.insert(text)
    case .paste(let text): return paste(text)
    case .enter:
      defer { buffer = EditBuffer() }
      return .submit(buffer.text)
    case .tab: return completeWord()
    case .backspace: buffer.backspace()
    case .delete: buffer.deleteForward()
    case .left: buffer.moveLeft()
    case .right: buffer.moveRight()
    case .home: buffer.moveHome()
    case .end: buffer.moveEnd()
    case .wordLeft: buffer.moveWordLeft()
    case .wordRight: buffer.moveWordRight()
    case .deleteWordBackward: keep(buffer.deleteWordBackward())
    case .deleteWordForward: keep(buffer.deleteWordForward())
    case .killToEnd: keep(buffer.killToEnd())
    case .killToStart: keep(buffer.killToStart())
    case .yank: buffer.insert(killed)
    case .transpose: buffer.transpose()
    case .up: step(by: -1)
    case .down: step(by: 1)
    case .interrupt: return .cancel
    case .endOfInput:
      if buffer.isEmpty { return .end }
      buffer.deleteForward()
    case .reverseSearch: search = Search(original: buffer)
    case .clearScreen: return .clearScreen
    case .abort, .ignored: break
    }
    return .editing
  }

  private mutating func keep(_ text: String) {
    if !text.isEmpty { killed = text }
  }

  /// Moves through history; the line being typed comes back past the newest entry.
  private mutating func step(by offset: Int) {
    let next = historyIndex + offset
    guard next >= 0, next <= history.count else { return }
    if historyIndex == history.count { draft = buffer }
    historyIndex = next
    buffer = next == history.count ? draft : EditBuffer(history[next])
  }

  /// Pasted text goes in as it is; a line break in it ends the line, and the lines after it
  /// wait in ``queuedLines``.
  private mutating func paste(_ text: String) -> Outcome {
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    buffer.insert(lines.removeFirst())
    guard !lines.isEmpty else { return .editing }
    let last = lines.removeLast()
    queuedLines = lines
    let submitted = buffer.text
    buffer = EditBuffer(last)
    return .submit(submitted)
  }

  /// Takes the first line a paste queued, leaving the rest.
  mutating func takeQueuedLine() -> String? {
    queuedLines.isEmpty ? nil : queuedLines.removeFirst()
  }

  private mutating func completeWord() -> Outcome {
    let completion = complete(buffer.textBeforeCursor)
    let typed = buffer.cursor - completion.start
    guard typed >= 0, !completion.candidates.isEmpty else { return .editing }
    let range = completion.start..<buffer.cursor
    if completion.candidates.count == 1 {
      buffer.replace(range, with: completion.candidates[0] + (completion.addsSpace ? " " : ""))
      return .editing
    }
    let common = completion.candidates.dropFirst().reduce(completion.candidates[0]) {
      String(zip($0, $1).prefix { $0 == $1 }.map(\.0))
    }
    if common.count > typed {
      buffer.replace(range, with: common)
      return .editing
    }
    return .list(completion.candidates)
  }

  /// A key during a reverse search, or `nil` when the search ended and the key edits the line.
  private mutating func handleInSearch(_ key: Key) -> Outcome? {
    guard var current = search else { return nil }
    switch key {
    case .text(let text), .paste(let text):
      current.query += text
      // The entry found so far stays while it still contains the longer query.
      current.match = findMatch(
        current.query, before: current.match.map { $0 + 1 } ?? history.count)
    case .reverseSearch:
      if let match = current.match {
        current.match = findMatch(current.query, before: match) ?? match
      }
    case .backspace:
      if !current.query.isEmpty { current.query.removeLast() }
      current.match = findMatch(current.query, before: history.count)
    case .abort, .interrupt:
      buffer = current.original
      search = nil
      return .editing
    default:
      search = nil
      if let match = current.match {
        buffer = EditBuffer(history[match])
        historyIndex = match
      }
      guard key == .enter else { return nil }
      defer { buffer = EditBuffer() }
      return .submit(buffer.text)
    }
    search = current
    return .editing
  }

  private func findMatch(_ query: String, before index: Int) -> Int? {
    guard !query.isEmpty else { return nil }
    var position = min(index, history.count) - 1
    while position >= 0 {
      if history[position].contains(query) { return position }
      position -= 1
    }
    return nil
  }
}
