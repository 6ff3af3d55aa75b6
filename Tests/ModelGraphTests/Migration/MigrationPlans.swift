import Foundation
import ModelGraph

/// An error a test stage throws.
struct StageFailure: Error, Equatable {
  var message: String
}

/// Version 1 to 2 (lightweight), 2 to 3 (custom).
enum TripsPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [
      .lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self),
      .custom(fromVersion: TripsV2.self, toVersion: TripsV3.self, migrate: TripsV3.migrate),
    ]
  }
}

/// Version 1 to 2 only.
enum LightweightPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self)]
  }
}

/// Version 2 to 3 as a lightweight stage, which cannot convert ratings.
enum WrongKindPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self)]
  }
}

/// A custom stage that changes some ratings, then throws.
enum FailingPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [
      .lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self),
      .custom(fromVersion: TripsV2.self, toVersion: TripsV3.self) { _, new in
        for trip in try new.fetch(FetchDescriptor<TripsV3.Trip>()) { trip.rating = "?" }
        throw StageFailure(message: "disk of ratings unavailable")
      },
    ]
  }
}

/// A custom stage that forgets the ratings it owes.
enum ForgetfulPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [.custom(fromVersion: TripsV2.self, toVersion: TripsV3.self) { _, _ in }]
  }
}

/// A custom stage that writes to its read-only old context and saves it.
enum OldWriterPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: TripsV2.self, toVersion: TripsV3.self) { old, new in
        try TripsV3.migrate(from: old, to: new)
        for trip in try old.fetch(FetchDescriptor<TripsV2.Trip>()) { trip.rating = 0 }
        try old.save()
      }
    ]
  }
}

/// Version 1 listed twice under two identifiers.
enum DuplicatePlan: SchemaMigrationPlan {
  enum Again: VersionedSchema {
    static var versionIdentifier: SchemaVersion { SchemaVersion(1, 1, 0) }
    static var models: [any PersistentModel.Type] { TripsV1.models }
  }
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, Again.self, TripsV2.self] }
  static var stages: [MigrationStage] { [] }
}

/// A plan whose stages do not reach version 3 from version 1.
enum GapPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [.custom(fromVersion: TripsV2.self, toVersion: TripsV3.self, migrate: TripsV3.migrate)]
  }
}

/// A custom stage that sets what it owes, then saves its new context itself.
enum SelfSavingPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV2.self, TripsV3.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: TripsV2.self, toVersion: TripsV3.self) { old, new in
        try TripsV3.migrate(from: old, to: new)
        try new.save()
      }
    ]
  }
}
