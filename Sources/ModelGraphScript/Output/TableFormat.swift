import Foundation
import ModelGraphCore

/// Aligned columns: numbers to the right, everything else to the left.
enum TableFormat {
  static func render(_ result: ResultSet, headers: Bool = true) -> String {
    let cells = result.rows.map { row in row.map { $0.map(plainText).map(escapeControls) ?? "" } }
    var widths = result.columns.map(\.count)
    for row in cells {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    let numeric = result.columns.indices.map { column in
      result.rows.allSatisfy { row in
        switch row[column] {
        case .int?, .uint?, .double?, .decimal?, nil, .null?: true
        default: false
        }
      } && result.rows.contains { $0[column] != nil && $0[column] != .null }
    }
    func line(_ values: [String]) -> String {
      values.enumerated().map { index, value in
        let padding = String(repeating: " ", count: widths[index] - value.count)
        return numeric[index] ? padding + value : value + padding
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
    var text = ""
    if headers {
      text += line(result.columns) + "\n"
      text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
    }
    for row in cells { text += line(row) + "\n" }
    let count = result.rows.count
    text += "(\(count) \(count == 1 ? result.noun.0 : result.noun.1))\n"
    return text
  }
}

/// Line breaks and tabs as `\n`, `\r` and `\t`, and other control characters and line or
/// paragraph separators as `\u{…}`, so that a cell stays on its line and a stored escape
/// sequence cannot drive the terminal.
private func escapeControls(_ text: String) -> String {
  guard text.unicodeScalars.contains(where: { ScriptLiteral.controlEscape($0) != nil }) else {
    return text
  }
  var result = ""
  for scalar in text.unicodeScalars {
    if let escape = ScriptLiteral.controlEscape(scalar) {
      result += escape
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = Substring(self)
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
