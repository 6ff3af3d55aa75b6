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

/// Line breaks and tabs as `\n` and `\t`, so a cell stays on its line.
private func escapeControls(_ text: String) -> String {
  guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return text }
  return text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(
    of: "\r", with: "\\r"
  )
  .replacingOccurrences(of: "\t", with: "\\t")
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = Substring(self)
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
