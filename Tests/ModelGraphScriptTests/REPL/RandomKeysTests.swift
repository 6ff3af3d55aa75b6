import Testing

@testable import ModelGraphScript

@Suite("Random keys")
struct RandomKeysTests {
  @Test(
    "random bytes, biased to escapes and control keys, never break the editor's invariants",
    arguments: [1, 2, 3, 4] as [UInt64])
  func randomBytes(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let completer = Completer(classes: [
      "Trip": .init(attributes: ["name", "start"], relationships: [("owner", "Person")]),
      "Person": .init(attributes: ["name"], relationships: []),
    ])
    let pieces: [[UInt8]] = [
      [0x1B], Array("[".utf8), Array("O".utf8), Array("1;5".utf8), Array("~".utf8),
      Array("200~".utf8), Array("201~".utf8), Array("fetch Trip.".utf8), Array("é".utf8),
      [0xC3], [0xFF], [1], [3], [4], [5], [7], [8], [9], [11], [13], [18], [20], [21], [23],
      [25], [127], Array("a b".utf8),
    ]
    var decoder = KeyDecoder()
    var state = LineEditState(
      history: ["fetch Trip", "count Person"], complete: completer.complete)
    var submitted = 0
    for _ in 0..<4000 {
      let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
      for key in decoder.feed(piece) {
        switch state.handle(key) {
        case .submit, .cancel, .end:
          submitted += 1
          state = LineEditState(
            history: ["fetch Trip", "count Person"], text: state.buffer.text,
            complete: completer.complete)
        default:
          break
        }
        #expect((0...state.buffer.characters.count).contains(state.buffer.cursor))
        let shown = state.display(prompt: "> ", width: 20)
        #expect(shown.text.count <= 19)
        #expect((0...shown.text.count).contains(shown.cursor))
      }
    }
    #expect(submitted > 0)
  }
}
