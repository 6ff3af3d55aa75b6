/// Whether this executable is a debug build, whose figures mean nothing.
package enum BuildConfiguration {
  /// True for a build with assertions on (`swift build` without `-c release`).
  package static var isDebug: Bool {
    #if DEBUG
      return true
    #else
      return _isDebugAssertConfiguration()
    #endif
  }

  /// The warning a debug run prints first.
  package static let debugWarning =
    "# WARNING: DEBUG BUILD. These figures are meaningless; build with "
    + "`swift build -c release` and run .build/release/modelgraph-benchmark."
}
