/// How results are printed: `.mode table|json|csv`.
public enum OutputMode: String, Sendable, CaseIterable {
  /// Aligned columns with a header and a count line.
  case table
  /// One JSON array of objects.
  case json
  /// RFC 4180 CSV with a header line.
  case csv
}
