/// The words of a dot-command's arguments: separated by spaces, `"…"` or `'…'` around a word
/// with spaces.
enum DotArguments {
  /// The words of `text`.
  ///
  /// - Throws: ``ScriptError`` at `location` for a quote left open.
  static func split(_ text: String, at location: SourceLocation) throws -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    var hasWord = false
    for character in text {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        hasWord = true
      } else if character == " " || character == "\t" {
        if hasWord { words.append(word) }
        word = ""
        hasWord = false
      } else {
        word.append(character)
        hasWord = true
      }
    }
    if quote != nil { throw ScriptError("a quoted file name is not closed", at: location) }
    if hasWord { words.append(word) }
    return words
  }
}
