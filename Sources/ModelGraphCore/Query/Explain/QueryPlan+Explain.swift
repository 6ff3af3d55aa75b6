extension QueryPlan {
  /// The plan as text: the class and condition, each table with how it is read and what is
  /// tested on its rows, the tables pruned, what is left to the front end, and the order.
  ///
  /// ```
  /// fetch Trip and subclasses
  /// where $0.startDate >= 2026-01-01T00:00:00Z && $0.startDate < 2026-01-31T00:00:00Z
  ///   Trip (20012 objects): ordered(startDate) walk [2026-01-01T00:00:00Z, 2026-01-31T00:00:00Z) ascending (~164 rows)
  ///   BusinessTrip (40224 objects): ordered(startDate) walk … (~331 rows)
  ///   PersonalTrip (39764 objects): ordered(startDate) walk … (~322 rows)
  /// order: $0.startDate ascending, by merging 3 index walks, stopping after 50
  /// window: limit 50
  /// ```
  public var explanation: String {
    let onlyCommitted = self.onlyCommitted
    var lines = ["fetch \(entity.name)\(request.includesSubclasses ? " and subclasses" : " only")"]
    if let predicate = request.predicate { lines.append("where \(predicate)") }
    if let residual = request.residual {
      lines.append("fallback: Predicate.evaluate on each candidate object for \(residual)")
    }
    for plan in tables {
      var line = "  \(plan.entity.name) (\(plan.table.liveCount) objects): \(plan.accessNote())"
      if let predicate = plan.predicate, let condition = plan.condition {
        let style = condition.refine == nil ? "row by row" : "column by column"
        line += ", test \(predicate) \(style)"
      }
      if onlyCommitted { line += ", saved objects only" }
      lines.append(line)
    }
    for (entity, reason) in pruned {
      lines.append("  \(entity.name): pruned, \(reason)")
    }
    if tables.isEmpty { lines.append("  no table to read") }
    let keys = request.sort.map(\.description).joined(separator: ", ")
    switch order {
    case .natural:
      lines.append("order: class, then row")
    case .indexMerge:
      let stop = request.stopAfter.map { ", stopping after \($0)" } ?? ""
      let walks = tables.count == 1 ? "an index walk" : "merging \(tables.count) index walks"
      lines.append("order: \(keys), by \(walks)\(stop)")
    case .topK(let capacity):
      lines.append("order: \(keys), keeping the best \(capacity) in a heap")
    case .fullSort:
      lines.append("order: \(keys), sorting every match")
    }
    var window: [String] = []
    if request.offset > 0 { window.append("offset \(request.offset)") }
    if let limit = request.limit { window.append("limit \(limit)") }
    if !window.isEmpty { lines.append("window: " + window.joined(separator: ", ")) }
    if isFromCache {
      lines.append("plan: reused from the cache (a request of the same shape), with these values")
    }
    return lines.joined(separator: "\n")
  }
}
