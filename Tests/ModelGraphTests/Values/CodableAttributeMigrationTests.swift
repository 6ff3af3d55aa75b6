import Foundation
import ModelGraph
import Testing

/// Version 1: Codable, dictionary and set attributes, and one that version 2 removes.
enum CodableV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Item.self] }

  final class Item: PersistentModel {
    @Attribute var name: String
    @Attribute var labels: [String: String]
    @Attribute var tags: Set<String>
    @Attribute var payment: CAPayment
    @Attribute var weather: CAWeather?
  }
}

/// Version 2: `weather` removed, a Codable attribute added with an initial value and an
/// optional one added.
enum CodableV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Item.self] }

  final class Item: PersistentModel {
    @Attribute var name: String
    @Attribute var labels: [String: String]
    @Attribute var tags: Set<String>
    @Attribute var payment: CAPayment
    @Attribute var status: CAStatus = .published
    @Attribute var history: [CAPayment]?
  }
}

enum CodablePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [CodableV1.self, CodableV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: CodableV1.self, toVersion: CodableV2.self)]
  }
}

@Suite("Codable attributes through a lightweight migration")
struct CodableAttributeMigrationTests {
  @Test("kept values read back, added ones take their initial value or nil")
  func lightweight() throws {
    let scratch = try SnapshotScratch()
    do {
      let container = try ModelContainer(
        for: CodableV1.models, configurations: [ModelConfiguration(url: scratch.store)])
      let context = ModelContext(container)
      let item = CodableV1.Item()
      item.name = "first"
      item.labels = ["k": "v"]
      item.tags = ["x", "y"]
      item.payment = card
      item.weather = sunny
      context.insert(item)
      try context.save()
      try container.snapshot()
    }
    let container = try ModelContainer(
      for: CodableV2.models, migrationPlan: CodablePlan.self,
      configurations: [ModelConfiguration(url: scratch.store)])
    let context = ModelContext(container)
    let item = try #require(try context.fetch(FetchDescriptor<CodableV2.Item>()).first)
    #expect(item.name == "first" && item.labels == ["k": "v"] && item.tags == ["x", "y"])
    #expect(item.payment == card)
    #expect(item.status == .published)
    #expect(item.history == nil)
    item.history = [.cash]
    try context.save()
    let again = try #require(
      try ModelContext(container).fetch(FetchDescriptor<CodableV2.Item>()).first)
    #expect(again.history == [.cash])
  }
}
