import Foundation
import Testing

/// The sample scripts in `Playgrounds/Scripts` run without an error and print what
/// `Golden/Playgrounds/NAME.stdout` holds, so they cannot rot.
@Suite("Playground scripts")
struct PlaygroundScriptTests {
  static let scripts = GoldenCase.all(
    in: GoldenCase.packageRoot.appendingPathComponent("Playgrounds/Scripts"))
  static let expected = GoldenCase.goldenDirectory.appendingPathComponent("Playgrounds")

  @Test("there are sample scripts")
  func samplesExist() {
    #expect(Self.scripts.map(\.name).sorted() == ["departments", "library", "trips"])
  }

  @Test("each runs cleanly and prints its expected output", arguments: scripts)
  func sample(_ script: GoldenCase) throws {
    let result = InProcess.run(script.script, path: script.scriptFile)
    script.updateIfAsked(result, into: Self.expected, onlyStdout: true)
    #expect(result.stderr == "")
    #expect(result.exit == 0)
    let expected = try String(
      contentsOf: Self.expected.appendingPathComponent("\(script.name).stdout"), encoding: .utf8)
    #expect(result.stdout == expected)
  }
}
