import Foundation
import ModelGraph
import Testing

@Suite("Migration: errors")
struct MigrationErrorTests {
  @Test("without a plan, a lightweight change migrates by itself and is reported")
  func noPlan() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV1(scratch.store)
    let container = try ModelContainer(
      for: TripsV2.models, configurations: [ModelConfiguration(url: scratch.store)])
    let expected: [SchemaDifference] = [
      SchemaDifference(entity: "Trip", property: "notes", change: .attributeRemoved),
      SchemaDifference(entity: "Trip", property: "title", change: .attributeRenamed(from: "name")),
      SchemaDifference(entity: "Trip", property: "rating", change: .attributeAdded),
      SchemaDifference(entity: "Trip", property: "budget", change: .attributeAdded),
      SchemaDifference(entity: "Trip", property: "accommodations", change: .relationshipAdded),
      SchemaDifference(entity: "PersonalTrip", change: .entityAdded),
      SchemaDifference(
        entity: "Accommodation", property: "trip",
        change: .relationshipChanged("inverse none became accommodations")),
      SchemaDifference(
        entity: "Accommodation", property: "trip",
        change: .relationshipChanged("delete rule deny became nullify")),
    ]
    #expect(container.automaticMigration == expected)
    let context = ModelContext(container)
    let paris = try requireTrip(context, "Paris")
    #expect(paris.persistentModelID == identifiers["Paris"])
    #expect(paris.rating == 3 && paris.budget == nil)
    #expect(paris.accommodations.map(\.name) == ["Hotel"])
  }

  @Test("without a plan, a type change is an error naming it")
  func noPlanTypeChange() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV3.models, configurations: [ModelConfiguration(url: scratch.store)])
    }
    #expect(error.code == .schemaMismatch)
    #expect(error.path == scratch.store.path)
    #expect(
      error.differences == [
        SchemaDifference(
          entity: "Trip", property: "rating",
          change: .attributeTypeChanged(from: "Int", to: "String"))
      ])
  }

  @Test("a lightweight stage names the change it cannot make, and the file stays")
  func notLightweight() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let before = try MigrationFiles.bytes(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV3.models, migrationPlan: WrongKindPlan.self,
        configurations: [ModelConfiguration(url: scratch.store)])
    }
    #expect(error.code == .notLightweight)
    #expect(
      error.differences == [
        SchemaDifference(
          entity: "Trip", property: "rating",
          change: .attributeTypeChanged(from: "Int", to: "String"))
      ])
    #expect(try MigrationFiles.bytes(scratch.store) == before)
  }

  @Test("a file that is none of the plan's versions is named against the newest")
  func unknownVersion() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV1(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV3.models, migrationPlan: WrongKindPlan.self,
        configurations: [ModelConfiguration(url: scratch.store)])
    }
    #expect(error.code == .schemaMismatch)
    #expect(error.message.contains("none of the versions"))
    #expect(
      error.differences.contains(SchemaDifference(entity: "BusinessTrip", change: .entityRemoved)))
    #expect(
      error.differences.contains(
        SchemaDifference(entity: "Trip", property: "notes", change: .attributeRemoved)))
  }

  @Test("plans are checked: identical schemas, a missing stage, classes of another version")
  func invalidPlans() throws {
    let duplicate = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV2.models, migrationPlan: DuplicatePlan.self,
        configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    }
    #expect(duplicate.code == .invalidPlan)
    #expect(duplicate.message.contains("have the same schema"))

    let wrongClasses = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV1.models, migrationPlan: TripsPlan.self,
        configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    }
    #expect(wrongClasses.code == .invalidPlan)
    #expect(wrongClasses.message.contains("not those of the newest version (3.0.0)"))

    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV1(scratch.store)
    let gap = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV3.models, migrationPlan: GapPlan.self,
        configurations: [ModelConfiguration(url: scratch.store)])
    }
    #expect(gap.code == .invalidPlan)
    #expect(gap.message.contains("version 1.0.0"))
  }

  @Test("without a plan, a changed subclass the container is not given is found by name")
  func unlistedSubclass() throws {
    let scratch = try SnapshotScratch()
    try MigrationFiles.writeV2(scratch.store)
    let error = try #require(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: TripsV2Renamed.Trip.self, configurations: ModelConfiguration(url: scratch.store))
    }
    #expect(error.code == .schemaMismatch)
    #expect(
      error.differences == [
        SchemaDifference(entity: "BusinessTrip", property: "company", change: .attributeRemoved),
        SchemaDifference(entity: "BusinessTrip", property: "employer", change: .attributeAdded),
      ])
    // The version 2 classes open it as it is.
    let container = try ModelContainer(
      for: TripsV2.Trip.self, configurations: ModelConfiguration(url: scratch.store))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripsV2.BusinessTrip>()) == 1)
  }

  @Test("without a plan, declaration order and originalName may differ")
  func layoutOnly() throws {
    let scratch = try SnapshotScratch()
    let identifiers = try MigrationFiles.writeV2(scratch.store)
    let container = try ModelContainer(
      for: TripsV2Reordered.Trip.self, configurations: ModelConfiguration(url: scratch.store))
    let context = ModelContext(container)
    let parisID = try #require(identifiers["Paris"])
    let paris = try #require(context.model(for: parisID) as? TripsV2Reordered.Trip)
    #expect(paris.title == "Paris" && paris.rating == 5)
    #expect(paris.accommodations.map(\.name) == ["Hotel"])
    #expect(try context.fetchCount(FetchDescriptor<TripsV2Reordered.Trip>()) == 2)
  }
}
