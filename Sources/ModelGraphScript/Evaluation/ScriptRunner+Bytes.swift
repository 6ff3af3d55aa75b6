public import Foundation

extension ScriptRunner {
  /// Runs the script in `data`, which must be UTF-8.
  ///
  /// Bytes that are not UTF-8 are an error at their line and column, and nothing runs: a
  /// script's strings never get replacement characters in their place.
  /// - Returns: Whether every statement succeeded.
  @discardableResult
  public func run(_ data: Data, path: String) -> Bool {
    var scalars = String.UnicodeScalarView()
    var bytes = data.makeIterator()
    var decoder = UTF8()
    var offset = 0
    decoding: while true {
      switch decoder.decode(&bytes) {
      case .scalarValue(let scalar):
        scalars.append(scalar)
        offset += UTF8.width(scalar)
      case .emptyInput:
        break decoding
      case .error:
        let valid = String(scalars)
        let line = valid.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column = valid.split(separator: "\n", omittingEmptySubsequences: false).last!.count + 1
        let byte = String(data[data.startIndex + offset], radix: 16, uppercase: true)
        let error = ScriptError(
          "the script is not valid UTF-8 (byte 0x\(byte) at offset \(offset))",
          at: SourceLocation(line: line, column: column))
        let renderer = DiagnosticRenderer(path: path, source: String(decoding: data, as: UTF8.self))
        errorOutput(renderer.render(error))
        return false
      }
    }
    return run(String(scalars), path: path)
  }
}
