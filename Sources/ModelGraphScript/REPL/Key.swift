/// One key press as the line editor sees it, decoded from a terminal's bytes by ``KeyDecoder``.
enum Key: Equatable, Sendable {
  /// Printable text (one character as typed).
  case text(String)
  /// Text pasted between the bracketed-paste markers: inserted as it is, never run as keys.
  case paste(String)
  /// Return or Enter.
  case enter
  /// Tab: completion.
  case tab
  /// Backspace: deletes the character before the cursor.
  case backspace
  /// Delete: deletes the character under the cursor.
  case delete
  /// Left arrow or Ctrl-B.
  case left
  /// Right arrow or Ctrl-F.
  case right
  /// Up arrow or Ctrl-P: the previous history entry.
  case up
  /// Down arrow or Ctrl-N: the next history entry.
  case down
  /// Home or Ctrl-A.
  case home
  /// End or Ctrl-E.
  case end
  /// Alt-b or Ctrl-Left: to the start of the word.
  case wordLeft
  /// Alt-f or Ctrl-Right: past the end of the word.
  case wordRight
  /// Ctrl-W or Alt-Backspace: deletes back to the start of the word.
  case deleteWordBackward
  /// Alt-d: deletes to the end of the word.
  case deleteWordForward
  /// Ctrl-K: deletes to the end of the line.
  case killToEnd
  /// Ctrl-U: deletes to the start of the line.
  case killToStart
  /// Ctrl-Y: inserts the text deleted last.
  case yank
  /// Ctrl-T: swaps the characters around the cursor.
  case transpose
  /// Ctrl-C.
  case interrupt
  /// Ctrl-D: end of input on an empty line, else delete.
  case endOfInput
  /// Ctrl-R: reverse incremental search through history.
  case reverseSearch
  /// Ctrl-G: leaves a search, restoring the line.
  case abort
  /// Ctrl-L: clears the screen.
  case clearScreen
  /// A key or sequence the editor does not use; ignored.
  case ignored
}
