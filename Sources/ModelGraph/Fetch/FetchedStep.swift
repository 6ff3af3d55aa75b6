/// A step of a fetch in a store keeping only fetched objects, where a test can act between
/// the fetch's reads of the database and its move onto what they loaded
/// (`ModelContext.fetchedStepHook`).
enum FetchedStep: Equatable {
  /// Before the SQL of a fetch with unsaved changes runs, with the attempt's number from 1.
  case sql(attempt: Int)
  /// After the database was read, before the context moves onto what it loaded or counted.
  case move
}
