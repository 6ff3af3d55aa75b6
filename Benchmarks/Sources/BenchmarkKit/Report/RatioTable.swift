/// The ratios of a run: each subject engine against each peer, oriented so that > 1 means the
/// subject is better.
///
/// The subject is ModelGraph (and ModelGraph under jemalloc, which is also compared with
/// ModelGraph under glibc); without ModelGraph, the first engine.
package struct RatioTable: Sendable {
  /// A subject and a peer.
  package struct Pair: Sendable, Hashable {
    /// The engine the ratio speaks for.
    package var subject: String
    /// The engine it is measured against.
    package var peer: String

    /// `modelgraph÷sqlite`.
    package var label: String { "\(subject)÷\(peer)" }
  }

  /// One job's ratios, in ``pairs`` order (`nil` where either side did not run).
  package struct Row: Sendable {
    /// The job.
    package var job: String
    /// One ratio per pair.
    package var ratios: [Double?]
  }

  /// The columns.
  package var pairs: [Pair]
  /// The rows, in job order.
  package var rows: [Row]
  /// The engine the table speaks for.
  package var primary: String

  /// The table of `lines` for `engines` (in report order).
  package init(lines: [ResultLine], engines: [String]) {
    let primary =
      engines.contains { $0.hasPrefix("modelgraph") } ? "modelgraph" : engines.first ?? ""
    let subjects = engines.filter { $0 == primary || $0.hasPrefix(primary + "-") }
    var pairs: [Pair] = []
    for subject in subjects {
      for peer in engines where peer != subject {
        if subject == primary && subjects.contains(peer) { continue }
        pairs.append(Pair(subject: subject, peer: peer))
      }
    }
    var jobs: [String] = []
    for line in lines where !jobs.contains(line.job) { jobs.append(line.job) }
    jobs.sort { Self.order($0) < Self.order($1) }
    let index = Dictionary(lines.map { ("\($0.job) \($0.engine)", $0) }) { first, _ in first }
    rows = jobs.map { job in
      Row(
        job: job,
        ratios: pairs.map { pair in
          guard let subject = index["\(job) \(pair.subject)"],
            let peer = index["\(job) \(pair.peer)"]
          else { return nil }
          return Self.ratio(subject, peer)
        })
    }
    self.pairs = pairs
    self.primary = primary
  }

  /// subject ÷ peer for figures where higher is better, peer ÷ subject otherwise.
  package static func ratio(_ subject: ResultLine, _ peer: ResultLine) -> Double? {
    guard let a = subject.figure, let b = peer.figure, let unit = subject.unit, a > 0, b > 0
    else { return nil }
    return Figure.higherIsBetter(unit: unit) ? a / b : b / a
  }

  /// The table as printed.
  package var text: [String] {
    guard !pairs.isEmpty else { return ["RATIOS: only one engine ran; nothing to compare"] }
    let widths = pairs.map { max(8, $0.label.count) + 2 }
    func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(1, width - text.count))
    }
    var out = ["RATIOS (> 1 means \(primary) is better; figures of this run, this machine)"]
    out.append(pad("job", 14) + zip(pairs, widths).map { pad($0.label, $1) }.joined())
    for row in rows {
      let cells = zip(row.ratios, widths).map { pad($0.map(Self.format) ?? "-", $1) }
      out.append(pad(row.job, 14) + cells.joined())
    }
    return out.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  /// A ratio with two significant decimals, more when it is small.
  package static func format(_ ratio: Double) -> String {
    ResultLine.fixed(ratio, decimals: ratio >= 0.1 ? 2 : ratio >= 0.001 ? 4 : 6)
  }

  /// Sort key: jobs in the workload's order (W1 … W11, sub-jobs in place), micro jobs after.
  package static func order(_ job: String) -> (Int, Int, String) {
    if let index = JobID.reportOrder.firstIndex(where: { $0.rawValue == job }) {
      return (0, index, job)
    }
    if let index = MicroJobID.allCases.firstIndex(where: { $0.rawValue == job }) {
      return (1, index, job)
    }
    return (2, 0, job)
  }
}
