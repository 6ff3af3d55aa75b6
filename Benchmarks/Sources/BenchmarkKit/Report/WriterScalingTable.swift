/// The WRITERS lines: each engine's figure for a job run with more writer threads divided by
/// its figure for the same work on one thread (`W12.threads2` ÷ `W12`), so > 1 means the
/// threads sped the work up.
package struct WriterScalingTable: Sendable {
  /// The WRITERS lines, in job order (none when no multi-writer job ran).
  package var text: [String] = []

  /// The table of `lines` (one scale's lines).
  package init(lines: [ResultLine]) {
    let ran = lines.filter { !$0.isSkipped }
    for line in ran {
      guard let job = JobID(rawValue: line.job), let single = job.answersLike,
        let figure = line.figure,
        let base = ran.first(where: { $0.job == single.rawValue && $0.engine == line.engine }),
        let baseFigure = base.figure, baseFigure > 0
      else { continue }
      text.append(
        "WRITERS \(line.job) \(line.engine) \(RatioTable.format(figure / baseFigure))x "
          + "\(single.rawValue) (\(job.writerThreads) writer threads ÷ 1)")
    }
  }
}
