import Foundation
import Testing

@testable import ModelGraphCore

/// The byte-level fast paths agree with the character-level definitions.
@Suite("Query engine: string matching")
struct QueryStringMatchingTests {
  static let haystacks = [
    "Oslo", "oslo fjord", "Café", "CAFE", "e\u{301}clair", "Straße", "x\r\ny", "Kelvin \u{212A}",
    "", "abcabc", "ABCABC", "a", "Trip 199", "naïve", "\u{1F600} smile", "Trip \u{FF19}\u{FF19}",
    "no-9 @home", "\u{2212}9", "9\u{301}9", "Trip 9\u{301}9 e\u{301}",
    "a native string of more bytes, 99",
    "ends in abc\r", "ABC at the start, then a long native tail",
  ]
  static let needles = [
    "", "a", "A", "abc", "ABC", "\r", "\n", "K", "e", "é", "caf", "CAFE", "99", "smile", "ss",
    "-9", "@", " 9",
  ]

  @Test("every operator on every pair")
  func pairs() {
    for hay in Self.haystacks {
      for needle in Self.needles {
        let pattern = StringPattern(needle)
        #expect(
          pattern.matches(hay, .contains) == StringMatching.contains(hay, needle),
          "\(hay) / \(needle)")
        #expect(pattern.matches(hay, .hasPrefix) == StringMatching.hasPrefix(hay, needle))
        #expect(pattern.matches(hay, .hasSuffix) == StringMatching.hasSuffix(hay, needle))
        #expect(
          pattern.matches(hay, .localizedStandardContains)
            == StringMatching.localizedStandardContains(hay, needle), "\(hay) / \(needle)")
      }
    }
  }

  @Test("random ASCII strings")
  func randomASCII() {
    var random = QueryRandom(seed: 3)
    let alphabet = Array("abAB -_[]{}`@09")
    for _ in 0..<2_000 {
      let hay = String(
        (0..<Int.random(in: 0..<12, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
      let needle = String(
        (0..<Int.random(in: 1..<4, using: &random)).map { _ in
          alphabet.randomElement(using: &random)!
        })
      let pattern = StringPattern(needle)
      #expect(pattern.matches(hay, .contains) == StringMatching.contains(hay, needle))
      #expect(
        pattern.matches(hay, .localizedStandardContains)
          == StringMatching.localizedStandardContains(hay, needle),
        "\(hay) / \(needle)")
    }
  }
}
