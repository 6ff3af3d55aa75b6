import ModelGraphCore

/// "Did you mean …?" for a misspelled name: the closest of the known names, by edit distance.
enum Suggestion {
  /// The known name closest to `name` (ignoring case), if `name` has three letters or more and
  /// it is within a third of its length (at least one edit), and is not `name` itself.
  static func closest(to name: String, among known: [String]) -> String? {
    let typed = Array(name.lowercased())
    // Under three letters every short name is "close": no suggestion.
    guard typed.count >= 3 else { return nil }
    let limit = max(1, typed.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in known where candidate.lowercased() != name.lowercased() {
      let distance = editDistance(typed, Array(candidate.lowercased()))
      if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// `" (did you mean 'x'?)"`, or the empty string.
  static func hint(for name: String, among known: [String]) -> String {
    closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// The Levenshtein distance: insertions, deletions and substitutions.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

extension Parser {
  /// The clause keywords a misspelled word after a statement may have meant.
  static let clauseWords = [
    "where", "sort", "limit", "offset", "prefetch", "by", "set", "asc", "desc",
  ]
}

extension ResolvedEntity {
  /// What follows "has no attribute or relationship 'name'": the closest member's name.
  func missingMemberHint(_ name: String) -> String {
    Suggestion.hint(for: name, among: attributes.map(\.name) + relationships.map(\.name))
  }
}
