/// The instants of the workload, as whole seconds since 1970 UTC.
package enum WorkloadCalendar {
  /// 2020-01-01, the first possible start date.
  package static let start: Int64 = 1_577_836_800
  /// 2030-01-01, the exclusive end of start dates.
  package static let end: Int64 = 1_893_456_000
  /// One day in seconds.
  package static let day: Int64 = 86_400
  /// 2021-01-01: W8 raises the budget of every trip that starts before it.
  package static let updateCutoff: Int64 = 1_609_459_200
  /// 2029-01-01: W9 deletes every trip that starts on or after it.
  package static let deleteCutoff: Int64 = 1_861_920_000
}
