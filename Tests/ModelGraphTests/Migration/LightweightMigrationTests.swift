import Foundation
import ModelGraph
import Testing

@Suite("Migration: lightweight stages")
struct LightweightMigrationTests {
  private func openV2(_ url: URL) throws -> ModelContainer {
    try ModelContainer(
      for: TripsV2.models, migrationPlan: LightweightPlan.self,
      configurations: [ModelConfiguration(url: url)])
  }

  @Test("attributes renamed, added with an initial value or optional, removed; identifiers kept")
  func attributes() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV1(scratch.store)
    let context = ModelContext(try openV2(scratch.store))
    let trips = try context.fetch(FetchDescriptor<TripsV2.Trip>(sortBy: [SortDescriptor(\.title)]))
    #expect(trips.map(\.title) == ["Paris", "Summit"])
    #expect(trips.map(\.persistentModelID) == [identifiers["Paris"], identifiers["Summit"]])
    #expect(trips.map(\.rating) == [3, 3])
    #expect(trips.map(\.budget) == [nil, nil])
    #expect(trips[0].startDate == Date(timeIntervalSince1970: 86_400))
    let summit = try #require(trips[1] as? TripsV2.BusinessTrip)
    #expect(summit.company == "Acme")
  }

  @Test("an added to-many relationship is filled from its stored inverse and its rules apply")
  func relationships() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV1(scratch.store)
    let context = ModelContext(try openV2(scratch.store))
    let paris = try requireTrip(context, "Paris")
    let summit = try requireTrip(context, "Summit")
    #expect(paris.accommodations.map(\.name) == ["Hotel"])
    #expect(summit.accommodations.map(\.name) == ["Lodge"])
    let tentID = try #require(identifiers["Tent"])
    let tent = try #require(context.model(for: tentID) as? TripsV2.Accommodation)
    #expect(tent.trip == nil)

    // Version 1 denied deleting an accommodation with a trip; version 2 nullifies.
    context.delete(paris.accommodations[0])
    try context.save()
    #expect(paris.accommodations.isEmpty)
    // The new relationship cascades.
    context.delete(summit)
    try context.save()
    let names = try context.fetch(FetchDescriptor<TripsV2.Accommodation>()).map(\.name)
    #expect(names == ["Tent"])
  }

  @Test("version 1 denies deleting an accommodation with a trip, which version 2 allows")
  func deleteRuleBefore() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV1(scratch.store)
    let container = try ModelContainer(
      for: TripsV1.models, configurations: [ModelConfiguration(url: scratch.store)])
    let context = ModelContext(container)
    let hotel = try #require(
      try context.fetch(FetchDescriptor<TripsV1.Accommodation>()).first { $0.name == "Hotel" })
    context.delete(hotel)
    #expect(throws: ModelError.self) { try context.save() }
  }

  @Test("an added subclass can be used, and the migrated file opens without a plan")
  func writtenBack() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV1(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    do {
      let container = try openV2(scratch.store)
      #expect(try MigrationFiles.bytes(scratch.store) != before)
      let context = ModelContext(container)
      let personal = TripsV2.PersonalTrip()
      personal.title = "Beach"
      personal.startDate = Date(timeIntervalSince1970: 0)
      context.insert(personal)
      try context.save()
      #expect(personal.reason == "leisure")
      try container.snapshot()
    }
    let container = try ModelContainer(
      for: TripsV2.models, configurations: [ModelConfiguration(url: scratch.store)])
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<TripsV2.Trip>(sortBy: [SortDescriptor(\.title)]))
    #expect(trips.map(\.title) == ["Beach", "Paris", "Summit"])
    #expect(trips[1].persistentModelID == identifiers["Paris"])
    #expect(trips[0] is TripsV2.PersonalTrip)
  }
}
