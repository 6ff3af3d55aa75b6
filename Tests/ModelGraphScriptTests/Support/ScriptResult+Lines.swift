import ModelGraphScript

extension ScriptResult {
  /// The first line of stderr: the first error a script met.
  var firstError: String { String(stderr.split(separator: "\n").first ?? "") }
}
