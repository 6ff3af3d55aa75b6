import Foundation

/// A bar chart of a ``RatioTable``: one group of bars per job, one bar per engine pair, ratios on
/// a log scale around 1, and a legend. Hand-written SVG, no dependency.
package struct SVGChart {
  /// The ratios to draw.
  package var table: RatioTable
  /// The chart's title.
  package var title: String

  private let barWidth = 16.0
  private let groupGap = 22.0
  private let left = 64.0
  private let top = 78.0
  private let plotHeight = 300.0
  private let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"]

  /// A chart of `table` titled `title`.
  package init(table: RatioTable, title: String) {
    self.table = table
    self.title = title
  }

  /// The SVG document.
  package var document: String {
    let ratios = table.rows.flatMap { $0.ratios.compactMap { $0 } }
    let low = max(-4, min(-1, (ratios.map(log10).min() ?? 0).rounded(.down)))
    let high = min(4, max(1, (ratios.map(log10).max() ?? 0).rounded(.up)))
    let groupWidth = Double(max(table.pairs.count, 1)) * barWidth + groupGap
    let width = left + Double(table.rows.count) * groupWidth + 20
    let height = top + plotHeight + 56
    func y(_ ratio: Double) -> Double {
      top + (high - min(high, max(low, log10(ratio)))) / (high - low) * plotHeight
    }
    var svg = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        + "font-family=\"sans-serif\" font-size=\"11\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
      text(left, 20, escape(title), attributes: "font-size=\"14\" font-weight=\"bold\""),
    ]
    svg += legend()
    var decade = low
    while decade <= high {
      let ratio = pow(10, decade)
      let lineY = y(ratio)
      let stroke = decade == 0 ? "#333" : "#ddd"
      svg.append(line(left, lineY, width - 20, lineY, stroke: stroke))
      svg.append(
        text(left - 6, lineY + 4, Self.axisLabel(decade), attributes: "text-anchor=\"end\""))
      decade += 1
    }
    for (index, row) in table.rows.enumerated() {
      let x0 = left + Double(index) * groupWidth + groupGap / 2
      for (pairIndex, ratio) in row.ratios.enumerated() {
        let x = x0 + Double(pairIndex) * barWidth
        guard let ratio else {
          svg.append(text(x + barWidth / 2, y(1) - 3, "–", attributes: "text-anchor=\"middle\""))
          continue
        }
        let (a, b) = (y(1), y(ratio))
        svg.append(
          "<rect x=\"\(f(x + 1))\" y=\"\(f(min(a, b)))\" width=\"\(f(barWidth - 2))\" "
            + "height=\"\(f(max(1, abs(a - b))))\" fill=\"\(color(pairIndex))\"><title>"
            + escape("\(row.job) \(table.pairs[pairIndex].label) = \(RatioTable.format(ratio))")
            + "</title></rect>")
      }
      let labelX = x0 + Double(row.ratios.count) * barWidth / 2
      svg.append(
        text(labelX, top + plotHeight + 18, escape(row.job), attributes: "text-anchor=\"middle\""))
    }
    svg.append(
      text(
        left, top + plotHeight + 44,
        escape("> 1: \(table.primary) is better (log scale; medians of one run on one machine)"),
        attributes: "fill=\"#555\""))
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
  }

  /// Writes the document to `path`.
  package func write(to path: String) throws {
    try Data(document.utf8).write(to: URL(fileURLWithPath: path))
  }

  private func legend() -> [String] {
    var items: [String] = []
    var x = left
    for (index, pair) in table.pairs.enumerated() {
      items.append(
        "<rect x=\"\(f(x))\" y=\"34\" width=\"12\" height=\"12\" fill=\"\(color(index))\"/>")
      items.append(text(x + 16, 44, escape(pair.label)))
      x += 28 + Double(pair.label.count) * 6.5
    }
    return items
  }

  private func color(_ index: Int) -> String {
    palette[index % palette.count]
  }

  private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String)
    -> String
  {
    "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\"/>"
  }

  private func text(_ x: Double, _ y: Double, _ content: String, attributes: String = "")
    -> String
  {
    "<text x=\"\(f(x))\" y=\"\(f(y))\" \(attributes)>\(content)</text>"
  }

  private func f(_ value: Double) -> String {
    ResultLine.fixed(value, decimals: 1)
  }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  private static func axisLabel(_ decade: Double) -> String {
    decade >= 0
      ? "1" + String(repeating: "0", count: Int(decade)) + "×"
      : "0." + String(repeating: "0", count: Int(-decade) - 1) + "1×"
  }
}
