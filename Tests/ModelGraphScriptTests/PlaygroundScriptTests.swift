import Foundation
import Testing

/// The sample scripts in `Playgrounds/Scripts` print what `Golden/Playgrounds/NAME.stdout`
/// holds, so they cannot rot. They run without an error, except those that start with
/// `-- options: --keep-going` to show a failing save: their diagnostics and exit code are
/// expected too (`NAME.stderr`, `NAME.exit`).
@Suite("Playground scripts")
struct PlaygroundScriptTests {
  static let scripts = GoldenCase.all(
    in: GoldenCase.packageRoot.appendingPathComponent("Playgrounds/Scripts"))
  static let expected = GoldenCase.goldenDirectory.appendingPathComponent("Playgrounds")

  @Test("there are sample scripts")
  func samplesExist() {
    #expect(
      Self.scripts.map(\.name).sorted() == [
        "campus", "departments", "library", "trips", "wishlist",
      ])
  }

  @Test("each runs and prints its expected output", arguments: scripts)
  func sample(_ script: GoldenCase) throws {
    let result = InProcess.run(script.script, path: script.scriptFile, keepGoing: script.keepGoing)
    script.updateIfAsked(result, into: Self.expected, onlyStdout: !script.keepGoing)
    let expected = GoldenCase(name: script.name, directory: Self.expected)
    #expect(result.stdout == (try #require(expected.expectedStdout)))
    if script.keepGoing {
      #expect(result.stderr == (try #require(expected.expectedStderr)))
      #expect(result.exit == (try #require(expected.expectedExit)))
    } else {
      #expect(result.stderr == "")
      #expect(result.exit == 0)
    }
  }
}
