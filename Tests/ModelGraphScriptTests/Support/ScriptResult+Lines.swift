import ModelGraphScript

extension ScriptResult {
  /// The first line of stderr: the first error a script met.
  var firstError: String { String(stderr.split(separator: "\n").first ?? "") }

  /// The lines of stdout but the reports of updates ("1 object updated").
  var figures: [String] {
    stdout.split(separator: "\n").map(String.init).filter { !$0.hasSuffix(" updated") }
  }
}
