/// The CHECK lines: every job's count and check compared across the engines that ran it.
package struct CheckTable: Sendable {
  /// One engine's answer to one job.
  package struct Answer: Codable, Sendable {
    /// The engine (SQLite layouts separately: `sqlite/class`).
    package var engine: String
    /// `count=… check=…`.
    package var answer: String
  }

  /// One job's verdict.
  package struct Entry: Codable, Sendable {
    /// The job.
    package var job: String
    /// `ok`, `MISMATCH`, or `none` when every engine skipped it.
    package var verdict: String
    /// Every engine that ran the job, in report order.
    package var answers: [Answer]
    /// The job whose answers this one's must equal too (``JobID/answersLike``), if it ran.
    package var sameAs: String?
    /// The answers of ``sameAs``, compared with this job's.
    package var referenceAnswers: [Answer] = []
  }

  /// One entry per job, in job order.
  package var entries: [Entry]

  /// Whether every job that ran agreed across engines.
  package var agrees: Bool { !entries.contains { $0.verdict == "MISMATCH" } }

  /// The checks of `lines`.
  package init(lines: [ResultLine]) {
    var jobs: [String] = []
    for line in lines where !jobs.contains(line.job) { jobs.append(line.job) }
    jobs.sort { RatioTable.order($0) < RatioTable.order($1) }
    func answers(_ job: String) -> [Answer] {
      lines.filter { $0.job == job && !$0.isSkipped }.map {
        Answer(engine: $0.engine, answer: Self.answer($0))
      }
    }
    entries = jobs.map { job in
      let own = answers(job)
      let sameAs = JobID(rawValue: job)?.answersLike?.rawValue
      let reference = sameAs.map(answers) ?? []
      let distinct = Set((own + reference).map(\.answer))
      let verdict = own.isEmpty ? "none" : distinct.count == 1 ? "ok" : "MISMATCH"
      return Entry(
        job: job, verdict: verdict, answers: own, sameAs: reference.isEmpty ? nil : sameAs,
        referenceAnswers: reference)
    }
  }

  /// `count=… check=…` of a line.
  static func answer(_ line: ResultLine) -> String {
    var text = "count=\(line["count"] ?? "-")"
    if let check = line["check"] { text += " check=\(check)" }
    return text
  }

  /// The CHECK lines as printed.
  package var text: [String] {
    entries.map { entry in
      let engines = entry.answers.map(\.engine).joined(separator: ",")
      switch entry.verdict {
      case "none":
        return "CHECK \(entry.job) none (skipped by every engine)"
      case "ok":
        let note =
          entry.sameAs.map { " (same as \($0))" }
          ?? (entry.answers.count == 1 ? " (one engine: nothing to compare)" : "")
        return "CHECK \(entry.job) ok \(entry.answers[0].answer) engines=\(engines)\(note)"
      default:
        let parts =
          entry.answers.map { "\($0.engine): \($0.answer)" }
          + entry.referenceAnswers.map { "\(entry.sameAs ?? "") \($0.engine): \($0.answer)" }
        return "CHECK \(entry.job) MISMATCH " + parts.joined(separator: "; ")
      }
    }
  }
}
