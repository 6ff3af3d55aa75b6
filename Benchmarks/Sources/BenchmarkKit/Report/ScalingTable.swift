import Foundation

/// How each figure grows with N: the figures at every scale and the growth of the cost per
/// operation for each tenfold step.
package struct ScalingTable: Sendable {
  /// The SCALING lines.
  package var text: [String]

  /// The table of `runs` (one per scale, ascending).
  package init(runs: [ScaleRun]) {
    var text = [
      "SCALING (figure at each N; cost = time per object, query or run; "
        + "cost growth 1.00 = constant, 10.00 = linear in N)"
    ]
    guard let first = runs.first else {
      self.text = text
      return
    }
    var keys: [(job: String, engine: String)] = []
    for line in runs.flatMap(\.lines) where !line.isSkipped {
      if !keys.contains(where: { $0.job == line.job && $0.engine == line.engine }) {
        keys.append((line.job, line.engine))
      }
    }
    keys.sort { a, b in
      let (x, y) = (RatioTable.order(a.job), RatioTable.order(b.job))
      if x != y { return x < y }
      return (first.engines.firstIndex(of: a.engine) ?? 0)
        < (first.engines.firstIndex(of: b.engine) ?? 0)
    }
    for key in keys {
      let points = runs.compactMap { run -> (Int, ResultLine)? in
        run.lines.first { $0.job == key.job && $0.engine == key.engine && !$0.isSkipped }
          .map { (run.scale, $0) }
      }
      guard let unit = points.first?.1.unit else { continue }
      let figures = points.map { "N=\($0.0):\(ResultLine.format($0.1.figure ?? 0))" }
      var growth: [String] = []
      for (a, b) in zip(points, points.dropFirst()) {
        guard let x = a.1.figure, let y = b.1.figure, x > 0, y > 0 else { continue }
        let costRatio = Figure.higherIsBetter(unit: unit) ? x / y : y / x
        let perTenfold = pow(costRatio, 1 / log10(Double(b.0) / Double(a.0)))
        growth.append(RatioTable.format(perTenfold))
      }
      text.append(
        "SCALING \(key.job) \(key.engine) \(unit) " + figures.joined(separator: " ")
          + " cost-growth-per-10x=" + (growth.isEmpty ? "-" : growth.joined(separator: ",")))
    }
    self.text = text
  }
}
