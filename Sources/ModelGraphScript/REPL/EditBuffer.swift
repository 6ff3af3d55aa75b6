/// The text of the line being edited and the cursor in it, with the editing operations of
/// readline's emacs mode. A value with no terminal behind it.
struct EditBuffer: Equatable {
  /// The characters of the line.
  private(set) var characters: [Character] = []
  /// The cursor: the index of the character it is on (`characters.count` at the end).
  private(set) var cursor = 0

  /// A buffer holding `text`, the cursor at its end.
  init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  /// The line.
  var text: String { String(characters) }
  /// The line before the cursor.
  var textBeforeCursor: String { String(characters[..<cursor]) }
  /// Whether the line is empty.
  var isEmpty: Bool { characters.isEmpty }

  /// Inserts `text` at the cursor and moves past it.
  mutating func insert(_ text: String) {
    let new = Array(text)
    characters.insert(contentsOf: new, at: cursor)
    cursor += new.count
  }

  /// Deletes the character before the cursor.
  mutating func backspace() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  /// Deletes the character under the cursor.
  mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Moves the cursor one character left.
  mutating func moveLeft() { cursor = max(cursor - 1, 0) }
  /// Moves the cursor one character right.
  mutating func moveRight() { cursor = min(cursor + 1, characters.count) }
  /// Moves the cursor to the start of the line.
  mutating func moveHome() { cursor = 0 }
  /// Moves the cursor to the end of the line.
  mutating func moveEnd() { cursor = characters.count }

  /// Moves the cursor to the start of the word before it (letters, digits and `_`).
  mutating func moveWordLeft() { cursor = wordStart(before: cursor) }
  /// Moves the cursor past the end of the word after it.
  mutating func moveWordRight() { cursor = wordEnd(after: cursor) }

  /// Deletes back to the previous space (Ctrl-W, as in a shell).
  ///
  /// - Returns: The deleted text.
  mutating func deleteWordBackward() -> String {
    var start = cursor
    while start > 0, characters[start - 1].isWhitespace { start -= 1 }
    while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
    return remove(start..<cursor)
  }

  /// Deletes to the end of the word after the cursor (Alt-d).
  ///
  /// - Returns: The deleted text.
  mutating func deleteWordForward() -> String {
    let end = wordEnd(after: cursor)
    let start = cursor
    return remove(start..<end)
  }

  /// Deletes from the cursor to the end of the line.
  ///
  /// - Returns: The deleted text.
  mutating func killToEnd() -> String { remove(cursor..<characters.count) }

  /// Deletes from the start of the line to the cursor.
  ///
  /// - Returns: The deleted text.
  mutating func killToStart() -> String { remove(0..<cursor) }

  /// Swaps the character before the cursor with the one under it (or the last two at the end).
  mutating func transpose() {
    guard characters.count >= 2, cursor > 0 else { return }
    let right = min(cursor, characters.count - 1)
    characters.swapAt(right - 1, right)
    cursor = right + 1
  }

  /// Replaces the characters in `range` with `text`, the cursor after it.
  mutating func replace(_ range: Range<Int>, with text: String) {
    let new = Array(text)
    characters.replaceSubrange(range, with: new)
    cursor = range.lowerBound + new.count
  }

  private mutating func remove(_ range: Range<Int>) -> String {
    let removed = String(characters[range])
    characters.removeSubrange(range)
    cursor = range.lowerBound
    return removed
  }

  private func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }

  private func wordStart(before index: Int) -> Int {
    var position = index
    while position > 0, !isWordCharacter(characters[position - 1]) { position -= 1 }
    while position > 0, isWordCharacter(characters[position - 1]) { position -= 1 }
    return position
  }

  private func wordEnd(after index: Int) -> Int {
    var position = index
    while position < characters.count, !isWordCharacter(characters[position]) { position += 1 }
    while position < characters.count, isWordCharacter(characters[position]) { position += 1 }
    return position
  }
}
