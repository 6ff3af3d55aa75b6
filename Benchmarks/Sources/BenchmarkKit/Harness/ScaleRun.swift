/// Everything the parent collected at one scale.
package struct ScaleRun: Sendable {
  /// Trips in the data set.
  package var scale: Int
  /// Engines in report order.
  package var engines: [String]
  /// One line per job and engine (SQLite: the faster layout).
  package var lines: [ResultLine] = []
  /// The lines the checks compare: every SQLite layout separately.
  package var checkLines: [ResultLine] = []
  /// Comment lines the children printed.
  package var notes: [String] = []
  /// Children that failed, and why.
  package var failures: [String] = []
}
