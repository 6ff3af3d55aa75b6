import Foundation
import Testing

@Suite("Golden scripts, run in-process")
struct GoldenTests {
  @Test("the golden directory holds scripts with expected output")
  func goldenFilesExist() {
    #expect(GoldenCase.all().count >= 8)
    for golden in GoldenCase.all() {
      #expect(golden.expectedStdout != nil, "\(golden.name).stdout is missing")
      #expect(golden.expectedStderr != nil, "\(golden.name).stderr is missing")
      #expect(golden.expectedExit != nil, "\(golden.name).exit is missing")
    }
  }

  @Test("stdout, stderr and exit code match", arguments: GoldenCase.all())
  func golden(_ golden: GoldenCase) {
    let result = InProcess.run(golden.script, path: golden.scriptFile, keepGoing: golden.keepGoing)
    golden.updateIfAsked(result)
    #expect(result.stdout == golden.expectedStdout)
    #expect(result.stderr == golden.expectedStderr)
    #expect(result.exit == golden.expectedExit)
  }
}
