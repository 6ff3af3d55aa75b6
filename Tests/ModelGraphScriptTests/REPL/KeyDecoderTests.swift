import Testing

@testable import ModelGraphScript

@Suite("Key decoding")
struct KeyDecoderTests {
  private func keys(_ text: String) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.feed(Array(text.utf8))
  }

  @Test(
    "Home and End in every common encoding",
    arguments: [
      ("\u{1B}[H", Key.home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
      ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
      ("\u{01}", .home), ("\u{05}", .end),
    ])
  func homeAndEnd(_ sequence: String, _ key: Key) {
    #expect(keys(sequence) == [key])
  }

  @Test(
    "word motions and deletions: Alt-b/f/d, Ctrl-arrows (xterm and rxvt-style modifiers), Ctrl-W",
    arguments: [
      ("\u{1B}b", Key.wordLeft), ("\u{1B}f", .wordRight), ("\u{1B}d", .deleteWordForward),
      ("\u{1B}[1;5D", .wordLeft), ("\u{1B}[1;5C", .wordRight), ("\u{1B}[1;3D", .wordLeft),
      ("\u{1B}[1;3C", .wordRight), ("\u{17}", .deleteWordBackward),
      ("\u{1B}\u{7F}", .deleteWordBackward),
    ])
  func words(_ sequence: String, _ key: Key) {
    #expect(keys(sequence) == [key])
  }

  @Test("arrows in normal and application mode; Delete; control keys")
  func arrowsAndControls() {
    #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}[3~") == [.delete])
    #expect(
      keys("\u{03}\u{04}\u{09}\r\n\u{12}\u{07}\u{0B}\u{15}\u{19}\u{7F}\u{08}")
        == [
          .interrupt, .endOfInput, .tab, .enter, .enter, .reverseSearch, .abort, .killToEnd,
          .killToStart, .yank, .backspace, .backspace,
        ])
  }

  @Test("a Ctrl-Left no longer types ';5D', and unknown sequences are dropped whole")
  func unknownSequences() {
    #expect(keys("a\u{1B}[1;5Db") == [.text("a"), .wordLeft, .text("b")])
    #expect(keys("\u{1B}[15~x") == [.ignored, .text("x")])
    #expect(keys("\u{1B}[1;2Q") == [.ignored])
  }

  @Test("UTF-8 text, even when its bytes arrive one call at a time")
  func utf8() {
    var decoder = KeyDecoder()
    var result: [Key] = []
    for byte in Array("é€😀".utf8) {
      result += decoder.feed([byte])
    }
    #expect(result == [.text("é"), .text("€"), .text("😀")])
    #expect(!decoder.isPending)
  }

  @Test("a bracketed paste is one event: its tabs, newlines and escapes are text")
  func bracketedPaste() {
    let pasted = "fetch T\twhere\n\u{1B}[Dx"
    #expect(
      keys("a\u{1B}[200~" + pasted + "\u{1B}[201~b") == [.text("a"), .paste(pasted), .text("b")])
  }

  @Test("a sequence split across reads decodes the same")
  func splitSequence() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[1;".utf8)) == [])
    #expect(decoder.isPending)
    #expect(decoder.feed(Array("5C".utf8)) == [.wordRight])
  }
}
