import Testing

@testable import ModelGraphScript

@Suite("Line editing buffer")
struct EditBufferTests {
  @Test("insert, move and delete characters")
  func characters() {
    var buffer = EditBuffer("fetch Trp")
    buffer.moveLeft()
    buffer.insert("i")
    #expect(buffer.text == "fetch Trip")
    #expect(buffer.cursor == 9)
    buffer.moveHome()
    buffer.deleteForward()
    #expect(buffer.text == "etch Trip")
    buffer.backspace()
    #expect(buffer.text == "etch Trip")
    buffer.moveEnd()
    buffer.backspace()
    #expect(buffer.text == "etch Tri")
    #expect(buffer.cursor == 8)
  }

  @Test("Alt-b and Alt-f move by words of letters, digits and _")
  func wordMotions() {
    var buffer = EditBuffer("fetch Trip where start_date > 2")
    buffer.moveWordLeft()
    #expect(buffer.cursor == 30)
    buffer.moveWordLeft()
    #expect(buffer.cursor == 17)
    buffer.moveWordLeft()
    #expect(buffer.cursor == 11)
    buffer.moveWordRight()
    #expect(buffer.cursor == 16)
    buffer.moveHome()
    buffer.moveWordRight()
    #expect(buffer.cursor == 5)
  }

  @Test("Ctrl-W deletes back to a space; Alt-d deletes the next word; Ctrl-K and Ctrl-U")
  func wordDeletions() {
    var buffer = EditBuffer("fetch Trip.name where ")
    #expect(buffer.deleteWordBackward() == "where ")
    #expect(buffer.deleteWordBackward() == "Trip.name ")
    #expect(buffer.text == "fetch ")
    buffer = EditBuffer("count Trip where x")
    buffer.moveHome()
    buffer.moveWordRight()
    #expect(buffer.deleteWordForward() == " Trip")
    #expect(buffer.text == "count where x")
    #expect(buffer.killToEnd() == " where x")
    #expect(buffer.killToStart() == "count")
    #expect(buffer.text == "")
  }

  @Test("Ctrl-T swaps the characters around the cursor")
  func transpose() {
    var buffer = EditBuffer("fecth")
    buffer.moveLeft()
    buffer.moveLeft()
    buffer.transpose()
    #expect(buffer.text == "fetch")
    buffer.transpose()
    #expect(buffer.text == "fethc")
  }
}
