/// Keeps, per job, the faster of the SQLite layouts' lines.
enum LayoutMerge {
  /// One line per job: the better figure among the layouts that ran it, tagged `layout=`.
  static func merge(_ perLayout: [(SQLiteLayout, [ResultLine])]) -> [ResultLine] {
    var order: [String] = []
    var best: [String: ResultLine] = [:]
    for (_, lines) in perLayout {
      for line in lines {
        guard let current = best[line.job] else {
          order.append(line.job)
          best[line.job] = line
          continue
        }
        if isBetter(line, than: current) { best[line.job] = line }
      }
    }
    order.sort { RatioTable.order($0) < RatioTable.order($1) }
    return order.compactMap { best[$0] }
  }

  private static func isBetter(_ line: ResultLine, than current: ResultLine) -> Bool {
    guard let figure = line.figure, let unit = line.unit else { return false }
    guard let currentFigure = current.figure else { return true }
    return Figure.higherIsBetter(unit: unit) ? figure > currentFigure : figure < currentFigure
  }
}
