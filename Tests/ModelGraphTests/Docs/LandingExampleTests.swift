import Foundation
import ModelGraph
import Testing

// The landing page's example (ModelGraph.docc/ModelGraph.md), as written there but for the
// store's folder and the class names (prefixed `LE` so they stay unique in the test target).

class LETrip: PersistentModel {
  @Attribute var name: String
  @Attribute var startDate: Date

  convenience init(name: String, startDate: Date) {
    self.init()
    self.name = name
    self.startDate = startDate
  }
}
class LEBusinessTrip: LETrip { @Attribute var company: String }

@Suite("The catalog's landing example")
struct LandingExampleTests {
  @Test("runs: saves, fetches and snapshots a trip")
  func landing() throws {
    let scratch = try SnapshotScratch()
    let storeURL = scratch.directory.appending(path: "trips.mgs")
    let container = try ModelContainer(
      for: LETrip.self, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)
    context.insert(LETrip(name: "Lisbon", startDate: .now))
    try context.save()
    let lisbon = "Lisbon"
    let trips = try context.fetch(
      FetchDescriptor(predicate: #Predicate<LETrip> { $0.name == lisbon }))
    try container.snapshot()
    #expect(trips.map(\.name) == ["Lisbon"])
    #expect(FileManager.default.fileExists(atPath: storeURL.path))
  }
}
