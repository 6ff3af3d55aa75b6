/// One output line: `<job> <engine> <figure> <unit> key=value …`, or
/// `<job> <engine> skipped reason=<why>`.
///
/// Children print these lines and the parent parses them back, so the format is the protocol
/// between the two processes as well as the report.
package struct ResultLine: Codable, Equatable, Sendable {
  /// One `key=value` pair, in print order.
  package struct Field: Codable, Equatable, Sendable {
    /// The key, such as `count`.
    package var key: String
    /// The value as printed.
    package var value: String

    /// A `key=value` pair.
    package init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// `W2`, `W7.trip`, `M1.read`, …
  package var job: String
  /// `modelgraph`, `sqlite`, `arrays`, `modelgraph-jemalloc`, …
  package var engine: String
  /// The figure, or `nil` for a skipped job.
  package var figure: Double?
  /// The figure's unit, or `nil` for a skipped job.
  package var unit: String?
  /// Why the job was skipped.
  package var skipReason: String?
  /// `seconds`, `min`, `runs`, `count`, `check`, `bytes`, and any more; `fault=<what>` marks
  /// a run that found its own work wrong, which fails the child after the line is printed.
  package var fields: [Field]

  /// A measured line.
  package init(job: String, engine: String, figure: Double, unit: String, fields: [Field]) {
    self.job = job
    self.engine = engine
    self.figure = figure
    self.unit = unit
    self.skipReason = nil
    self.fields = fields
  }

  /// A skipped line.
  package init(job: String, engine: String, skipReason: String) {
    self.job = job
    self.engine = engine
    self.figure = nil
    self.unit = nil
    self.skipReason = skipReason
    self.fields = []
  }

  /// The value of `key`, if present.
  package subscript(key: String) -> String? {
    fields.first { $0.key == key }?.value
  }

  /// Sets or adds `key`.
  package mutating func set(_ key: String, _ value: String) {
    if let index = fields.firstIndex(where: { $0.key == key }) {
      fields[index].value = value
    } else {
      fields.append(Field(key: key, value: value))
    }
  }

  /// Whether the job ran.
  package var isSkipped: Bool { skipReason != nil }

  /// The line as printed.
  package var text: String {
    if let skipReason {
      return "\(job) \(engine) skipped reason=\(skipReason)"
    }
    var parts = [job, engine, Self.format(figure ?? 0), unit ?? ""]
    parts += fields.map { "\($0.key)=\($0.value)" }
    return parts.joined(separator: " ")
  }

  /// Parses a printed line; `nil` for anything else (comments, tables).
  package init?(parsing line: Substring) {
    let tokens = line.split(separator: " ", omittingEmptySubsequences: true)
    guard tokens.count >= 3, let first = tokens.first?.first, first == "W" || first == "M" else {
      return nil
    }
    job = String(tokens[0])
    engine = String(tokens[1])
    fields = []
    if tokens[2] == "skipped" {
      figure = nil
      unit = nil
      let reason = line.range(of: "reason=").map { line[$0.upperBound...] } ?? ""
      skipReason = String(reason)
      return
    }
    guard tokens.count >= 4, let value = Double(tokens[2]) else { return nil }
    figure = value
    unit = String(tokens[3])
    skipReason = nil
    for token in tokens.dropFirst(4) {
      guard let equals = token.firstIndex(of: "=") else { return nil }
      let key = String(token[..<equals])
      let value = String(token[token.index(after: equals)...])
      fields.append(Field(key: key, value: value))
    }
  }

  /// A figure with as many decimals as its size calls for.
  package static func format(_ value: Double) -> String {
    let magnitude = abs(value)
    let decimals = magnitude >= 1_000 ? 1 : magnitude >= 1 ? 3 : magnitude >= 0.001 ? 5 : 8
    return fixed(value, decimals: decimals)
  }

  /// Seconds with microsecond resolution.
  package static func formatSeconds(_ value: Double) -> String {
    fixed(value, decimals: value >= 0.001 ? 6 : 9)
  }

  /// `value` with exactly `decimals` decimals.
  package static func fixed(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let units = UInt64(scaled)
    let whole = units / UInt64(scale)
    let fraction = units % UInt64(scale)
    var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
    if decimals > 0 {
      let digits = String(fraction)
      text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
  }
}
