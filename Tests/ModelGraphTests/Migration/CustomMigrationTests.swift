import Foundation
import ModelGraph
import Testing

@Suite("Migration: custom stages and chains")
struct CustomMigrationTests {
  private func open(_ url: URL, _ plan: any SchemaMigrationPlan.Type) throws -> ModelContainer {
    try ModelContainer(
      for: TripsV3.models, migrationPlan: plan, configurations: [ModelConfiguration(url: url)])
  }

  @Test("a version 1 file goes through the lightweight and the custom stage")
  func chain() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV1(scratch.store)
    let container = try open(scratch.store, TripsPlan.self)
    #expect(container.store.catalog.entity(named: "BusinessTrip") == nil)
    let context = ModelContext(container)
    let trips = try context.fetch(FetchDescriptor<TripsV3.Trip>(sortBy: [SortDescriptor(\.title)]))
    #expect(trips.map(\.title) == ["Acme: Summit", "Paris"])
    #expect(trips.map(\.rating) == ["***", "***"])
    #expect(trips[1].persistentModelID == identifiers["Paris"])
    #expect(trips[0].persistentModelID != identifiers["Summit"])
    #expect(trips[0].startDate == Date(timeIntervalSince1970: 2 * 86_400))
    #expect(trips.map { $0.accommodations.map(\.name) } == [["Lodge"], ["Hotel"]])
    let lodgeID = try #require(identifiers["Lodge"])
    let lodge = try #require(context.model(for: lodgeID) as? TripsV3.Accommodation)
    #expect(lodge.trip?.title == "Acme: Summit")
  }

  @Test("a version 2 file goes through the custom stage only, which reads its old values")
  func fromVersion2() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV2(scratch.store)
    let context = ModelContext(try open(scratch.store, TripsPlan.self))
    let parisID = try #require(identifiers["Paris"])
    let paris = try #require(context.model(for: parisID) as? TripsV3.Trip)
    #expect(paris.rating == "*****")
    #expect(paris.accommodations.map(\.name) == ["Hotel"])
  }

  @Test("a custom stage that throws leaves the file as it was, and the error is its own")
  func failingStage() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV1(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    let error = try #require(throws: StageFailure.self) {
      _ = try open(scratch.store, FailingPlan.self)
    }
    #expect(error.message == "disk of ratings unavailable")
    #expect(try MigrationFiles.bytes(scratch.store) == before)
    // The lock was released and the file still migrates with a working plan.
    let context = ModelContext(try open(scratch.store, TripsPlan.self))
    #expect(try context.fetchCount(FetchDescriptor<TripsV3.Trip>()) == 2)
  }

  @Test("a custom stage must set every value it owes")
  func owedValues() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(scratch.store, ForgetfulPlan.self)
    }
    #expect(error.code == .incompleteCustomStage)
    #expect(error.message.contains("Trip.rating on 1 object"))
    #expect(error.message.contains("BusinessTrip") == false)
    #expect(try MigrationFiles.bytes(scratch.store) == before)
  }

  @Test("the old context is read-only")
  func readOnlyOld() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(scratch.store, OldWriterPlan.self)
    }
    #expect(error.code == .incompleteCustomStage)
    #expect(error.message.contains("saved its old context"))
    #expect(try MigrationFiles.bytes(scratch.store) == before)
  }

  @Test("a stage that owes values may not save its new context itself")
  func selfSaving() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try open(scratch.store, SelfSavingPlan.self)
    }
    #expect(error.code == .incompleteCustomStage)
    #expect(
      error.message.contains("saved its new context itself while it owed values of Trip.rating"))
    #expect(try MigrationFiles.bytes(scratch.store) == before)
  }
}
