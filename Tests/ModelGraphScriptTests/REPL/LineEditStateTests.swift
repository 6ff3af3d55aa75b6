import Foundation
import Testing

@testable import ModelGraphScript

@Suite("Line editor behaviour, key by key")
struct LineEditStateTests {
  private let completer = Completer(classes: [
    "Trip": .init(attributes: ["name", "startDate"], relationships: [("owner", "Person")]),
    "TripNote": .init(attributes: ["text"], relationships: []),
    "Person": .init(attributes: ["name", "email"], relationships: [("trips", "Trip")]),
  ])

  /// Types `keys` into a fresh state and returns the state and the last outcome.
  private func type(
    _ keys: [Key], history: [String] = [], text: String = ""
  ) -> (LineEditState, LineEditState.Outcome) {
    var state = LineEditState(history: history, text: text, complete: completer.complete)
    var outcome = LineEditState.Outcome.editing
    for key in keys { outcome = state.handle(key) }
    return (state, outcome)
  }

  private func typing(_ text: String) -> [Key] { text.map { .text(String($0)) } }

  @Test("Enter submits the line; Ctrl-C cancels; Ctrl-D ends only an empty line")
  func endings() {
    #expect(type(typing("save") + [.enter]).1 == .submit("save"))
    #expect(type(typing("save") + [.enter]).0.buffer.isEmpty)
    #expect(type(typing("sa") + [.interrupt]).1 == .cancel)
    #expect(type([.endOfInput]).1 == .end)
    let (state, outcome) = type(typing("ab") + [.home, .endOfInput])
    #expect(outcome == .editing)
    #expect(state.buffer.text == "b")
  }

  @Test("up and down walk the history and bring the draft back")
  func history() {
    let (state, _) = type(typing("dra") + [.up, .up, .up, .down], history: ["one", "two"])
    #expect(state.buffer.text == "two")
    let (back, _) = type(typing("dra") + [.up, .down], history: ["one", "two"])
    #expect(back.buffer.text == "dra")
  }

  @Test("Ctrl-R finds the newest entry containing the query; again finds an older one")
  func reverseSearch() {
    let history = ["fetch Trip", "count Person", "fetch Person where name == 'a'"]
    var (state, _) = type([.reverseSearch] + typing("fetch"), history: history)
    #expect(state.isSearching)
    #expect(
      state.display(prompt: "> ").text == "(reverse-i-search)'fetch': " + history[2])
    _ = state.handle(.reverseSearch)
    #expect(state.display(prompt: "> ").text == "(reverse-i-search)'fetch': fetch Trip")
    #expect(state.handle(.enter) == .submit("fetch Trip"))
    // Another key accepts the match and edits it.
    (state, _) = type(
      [.reverseSearch] + typing("count", ) + [.end] + typing(" where"), history: history)
    #expect(!state.isSearching)
    #expect(state.buffer.text == "count Person where")
    // Ctrl-G gives the line back.
    (state, _) = type(typing("x") + [.reverseSearch] + typing("Per") + [.abort], history: history)
    #expect(state.buffer.text == "x")
  }

  @Test("Tab completes statements, classes, members after Class. and dot-commands")
  func completion() {
    #expect(type(typing("fe") + [.tab]).0.buffer.text == "fetch ")
    #expect(type(typing("fetch Pe") + [.tab]).0.buffer.text == "fetch Person ")
    #expect(type(typing("sum Trip.st") + [.tab]).0.buffer.text == "sum Trip.startDate")
    #expect(type(typing(".ta") + [.tab]).0.buffer.text == ".tables ")
    var files = completer
    files.listDirectory = { $0 == "." ? ["trips.csv", "data/"] : [] }
    var state = LineEditState(history: [], text: ".import tr", complete: files.complete)
    _ = state.handle(.tab)
    #expect(state.buffer.text == ".import trips.csv ")
    state = LineEditState(history: [], text: ".read d", complete: files.complete)
    _ = state.handle(.tab)
    #expect(state.buffer.text == ".read data/")
    #expect(
      type(typing("fetch Trip where owner.em") + [.tab]).0.buffer.text
        == "fetch Trip where owner.email")
    #expect(
      type(typing("fetch Trip where st") + [.tab]).0.buffer.text == "fetch Trip where startDate")
  }

  @Test("Tab with several candidates inserts their common prefix, then lists them")
  func completionList() {
    var (state, outcome) = type(typing("fetch T") + [.tab])
    #expect(state.buffer.text == "fetch Trip")
    #expect(outcome == .editing)
    outcome = state.handle(.tab)
    #expect(outcome == .list(["Trip", "TripNote"]))
  }

  @Test("Ctrl-W and Ctrl-Y: the deleted word comes back")
  func killAndYank() {
    let (state, _) = type(typing("fetch Trip") + [.deleteWordBackward, .yank, .yank])
    #expect(state.buffer.text == "fetch TripTrip")
  }

  @Test("a multi-line paste submits its first line and queues the others")
  func multiLinePaste() {
    var (state, outcome) = type([.paste("entity T { v: Int }\ninsert T { v: 1 }\ncount T\nfet")])
    #expect(outcome == .submit("entity T { v: Int }"))
    #expect(state.takeQueuedLine() == "insert T { v: 1 }")
    #expect(state.takeQueuedLine() == "count T")
    #expect(state.takeQueuedLine() == nil)
    #expect(state.buffer.text == "fet")
    (state, outcome) = type([.paste("a\tb")])
    #expect(outcome == .editing)
    #expect(state.buffer.text == "a\tb")
  }

  @Test("a line wider than the terminal scrolls sideways to keep the cursor in view")
  func scrolling() {
    var (state, _) = type(typing("fetch Trip where name == 'x'"))
    // "> " and 28 characters in 11 columns: the last 10 show, the cursor after them.
    #expect(state.display(prompt: "> ", width: 11).text == "ame == 'x'")
    #expect(state.display(prompt: "> ", width: 11).cursor == 10)
    _ = state.handle(.home)
    #expect(state.display(prompt: "> ", width: 11) == ("> fetch Tr", 2))
    (state, _) = type(typing("count T"))
    #expect(state.display(prompt: "> ", width: 80) == ("> count T", 9))
  }

  @Test("the display puts the cursor where the buffer's is")
  func display() {
    let (state, _) = type(typing("count T") + [.left, .left])
    #expect(state.display(prompt: "> ").text == "> count T")
    #expect(state.display(prompt: "> ").cursor == 7)
  }
}
