import Foundation

/// The `--json` file: the machine, and every scale's results, ratios and checks.
package struct JSONReport: Codable, Sendable {
  /// One result line as JSON.
  package struct Result: Codable, Sendable {
    /// The job.
    package var job: String
    /// The engine.
    package var engine: String
    /// The figure, absent when skipped.
    package var figure: Double?
    /// The unit, absent when skipped.
    package var unit: String?
    /// Why the job was skipped.
    package var skipped: String?
    /// The line's `key=value` pairs.
    package var keys: [String: String]
  }

  /// One ratio as JSON.
  package struct Ratio: Codable, Sendable {
    /// The job.
    package var job: String
    /// The engine the ratio speaks for.
    package var subject: String
    /// The peer.
    package var peer: String
    /// > 1 means the subject is better.
    package var ratio: Double
  }

  /// One scale.
  package struct Scale: Codable, Sendable {
    /// Trips.
    package var scale: Int
    /// Every line.
    package var results: [Result]
    /// Every ratio that could be computed.
    package var ratios: [Ratio]
    /// Every check.
    package var checks: [CheckTable.Entry]
    /// The children's comment lines.
    package var notes: [String]
    /// Children that failed.
    package var failures: [String]
  }

  /// `modelgraph-benchmark`.
  package var tool = "modelgraph-benchmark"
  /// When the run ended, ISO 8601.
  package var date: String
  /// The machine.
  package var machine: MachineInfo
  /// The scales, ascending.
  package var scales: [Scale]
  /// Whether every check agreed and no child failed.
  package var ok: Bool

  /// The report of `runs`.
  package init(runs: [ScaleRun], machine: MachineInfo, ok: Bool) {
    date = ISO8601DateFormatter().string(from: Date())
    self.machine = machine
    self.ok = ok
    scales = runs.map { run in
      let table = RatioTable(lines: run.lines, engines: run.engines)
      var ratios: [Ratio] = []
      for row in table.rows {
        for (pair, ratio) in zip(table.pairs, row.ratios) {
          if let ratio {
            ratios.append(Ratio(job: row.job, subject: pair.subject, peer: pair.peer, ratio: ratio))
          }
        }
      }
      return Scale(
        scale: run.scale,
        results: run.lines.map {
          Result(
            job: $0.job, engine: $0.engine, figure: $0.figure, unit: $0.unit,
            skipped: $0.skipReason,
            keys: Dictionary($0.fields.map { ($0.key, $0.value) }) { _, last in last })
        },
        ratios: ratios, checks: CheckTable(lines: run.checkLines).entries, notes: run.notes,
        failures: run.failures)
    }
  }

  /// Writes the report to `path`, pretty-printed with sorted keys.
  package func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: URL(fileURLWithPath: path))
  }
}
