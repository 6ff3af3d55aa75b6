import Foundation
import ModelGraph
import Testing

/// SwiftData's `Schema` spellings: a schema of classes or of a versioned schema, handed to a
/// container with or without a migration plan.
@Suite("Schema: SwiftData's container setup")
struct SchemaTypeTests {
  @Test("a container made from a Schema stores and fetches its classes")
  func containerFromSchema() throws {
    let schema = Schema([Trip.self])
    #expect(schema.version == Schema.Version(1, 0, 0))
    let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
    for container in [
      try ModelContainer(for: schema, configurations: [configuration]),
      try ModelContainer(for: schema, configurations: configuration),
      try ModelContainer(for: schema),
    ] {
      let context = ModelContext(container)
      context.insert(BusinessTrip(name: "Oslo", company: "Acme"))
      try context.save()
      #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Oslo"])
    }
  }

  @Test("a Schema lists the entities of its classes, with ancestors and destinations")
  func entities() throws {
    let names = try Schema(versionedSchema: TripsV2.self).entities().map(\.name)
    #expect(Set(names) == ["Trip", "BusinessTrip", "PersonalTrip", "Accommodation"])
    #expect(Schema(versionedSchema: TripsV2.self).version == Schema.Version(2, 0, 0))
  }

  @Test("a Schema of the last version with a migration plan migrates a version 1 file")
  func schemaWithPlan() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("schema-type-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("trips.mgs")
    do {
      let container = try ModelContainer(
        for: Schema(versionedSchema: TripsV1.self), configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      context.insert(TripsV1.Trip(name: "Lisbon", day: 0))
      try context.save()
      try container.snapshot()
    }
    let container = try ModelContainer(
      for: Schema(versionedSchema: TripsV2.self), migrationPlan: LightweightPlan.self,
      configurations: ModelConfiguration(url: url))
    let titles = try ModelContext(container).fetch(FetchDescriptor<TripsV2.Trip>()).map(\.title)
    #expect(titles == ["Lisbon"])
  }
}

/// A container is one store: several different configurations are refused, not ignored.
@Suite("Configurations: one store per container")
struct ConfigurationCountTests {
  @Test("two different configurations are a clear error; the same one twice is one")
  func severalConfigurations() throws {
    let memory = ModelConfiguration(isStoredInMemoryOnly: true)
    let file = ModelConfiguration(
      url: FileManager.default.temporaryDirectory.appendingPathComponent(
        "never-created-\(UUID().uuidString).mgs"))
    let error = #expect(throws: ModelError.self) {
      try ModelContainer(for: [Trip.self], configurations: [memory, file])
    }
    #expect(error?.code == .invalidConfiguration)
    #expect(error?.message.contains("one ModelConfiguration") == true)
    #expect(!FileManager.default.fileExists(atPath: file.url!.path))
    let container = try ModelContainer(for: [Trip.self], configurations: [memory, memory])
    #expect(container.configurations == [memory])
  }
}
