import BenchmarkKit
import ModelGraph

/// What the ModelGraph build under test can do, found by trying it on a tiny store.
///
/// The engine skips a job whose capability is missing rather than print a figure for work that
/// was not done. Probing at run time means no list has to be kept in step with the library.
struct ModelGraphCapabilities {
  /// Assigning `trip.accommodations` sets each accommodation's `trip`.
  var maintainsInverses = false
  /// Deleting a trip deletes its accommodations (`deleteRule: .cascade`).
  var cascadesDeletes = false
  /// Why a probe failed, if it threw.
  var probeError: String?

  /// Probes a fresh in-memory container.
  static func probe() -> ModelGraphCapabilities {
    var found = ModelGraphCapabilities()
    do {
      let container = try ModelContainer(
        for: Trip.self, Accommodation.self, Activity.self,
        configurations: ModelConfiguration(isStoredInMemoryOnly: true))
      let context = ModelContext(container)
      let trip = Trip(DataSet(scale: 1).trips[0])
      let stay = Accommodation(name: "probe", nightlyRate: 1)
      trip.accommodations = [stay]
      context.insert(trip)
      try context.save()
      found.maintainsInverses = stay.trip === trip
      context.delete(trip)
      try context.save()
      found.cascadesDeletes = try context.fetchCount(FetchDescriptor<Accommodation>()) == 0
    } catch {
      found.probeError = "\(error)"
    }
    return found
  }

  /// One line for the notes.
  var summary: String {
    "inverse maintenance \(maintainsInverses ? "yes" : "no"), "
      + "cascade delete \(cascadesDeletes ? "yes" : "no")"
      + (probeError.map { " (probe failed: \($0))" } ?? "")
  }
}
