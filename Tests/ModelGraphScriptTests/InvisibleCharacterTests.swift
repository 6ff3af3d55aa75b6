import Foundation
import ModelGraphScript
import Testing

/// A character that starts no token and cannot be seen (a no-break space pasted from a web
/// page, a form feed, a zero-width space) was reported as `unexpected character ' '`, or with
/// nothing between the quotes; the error names its code point instead.
@Suite("Runner errors naming invisible characters")
struct InvisibleCharacterTests {
  @Test("an invisible character is named by its code point, a visible one as before")
  func named() {
    for (text, name) in [
      ("\u{A0}", "invisible character U+00A0"), ("\u{C}", "invisible character U+000C"),
      ("\u{200B}", "invisible character U+200B"), ("\u{7}", "invisible character U+0007"),
      ("#", "character '#'"),
    ] {
      let result = InProcess.run("entity A { x: Int }\ncount A\(text)\n", path: "t.mgscript")
      #expect(result.exit == 1)
      #expect(
        result.firstError == "t.mgscript:2:8: error: unexpected \(name)", "\(name)")
    }
  }
}
