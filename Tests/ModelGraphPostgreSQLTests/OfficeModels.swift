import Foundation
import ModelGraph

/// People in teams, with desks and jobs (some of them errands, a subclass in its own table):
/// the schema before the custom stages that change a relationship's destination, cardinality
/// or inverse.
enum OfficeV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Team.self, Desk.self, Person.self, Job.self, Errand.self]
  }

  class Team: PersistentModel {
    @Attribute var name: String
  }

  class Desk: PersistentModel {
    @Attribute var label: String
  }

  class Person: PersistentModel {
    @Attribute var name: String
    @Relationship var team: Team?
    @Relationship var desks: [Desk]
    @Relationship var favorites: [Desk]
    @Relationship(inverse: \Job.owner) var jobs: [Job]
  }

  class Job: PersistentModel {
    @Attribute var title: String
    @Relationship var owner: Person?
    @Relationship var reviewer: Person?
    @Relationship var client: Person?
  }

  final class Errand: Job {
    @Attribute var place: String?
  }
}

/// A job's client is a team now (a to-one whose destination changes), its reviewer a list of
/// teams (a to-one that becomes a to-many of another destination), and a person's favorites
/// are teams (a to-many whose destination changes).
enum OfficeMovedV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Team.self, Desk.self, Person.self, Job.self, Errand.self]
  }

  class Team: PersistentModel {
    @Attribute var name: String
  }

  class Desk: PersistentModel {
    @Attribute var label: String
  }

  class Person: PersistentModel {
    @Attribute var name: String
    @Relationship var team: Team?
    @Relationship var desks: [Desk]
    @Relationship var favorites: [Team]
    @Relationship(inverse: \Job.owner) var jobs: [Job]
  }

  class Job: PersistentModel {
    @Attribute var title: String
    @Relationship var owner: Person?
    @Relationship var reviewer: [Team]
    @Relationship var client: Team?
  }

  final class Errand: Job {
    @Attribute var place: String?
  }
}

/// A person's desks become one desk, renamed (a to-many that becomes a to-one).
enum OfficeOneDeskV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Team.self, Desk.self, Person.self, Job.self, Errand.self]
  }

  class Team: PersistentModel {
    @Attribute var name: String
  }

  class Desk: PersistentModel {
    @Attribute var label: String
  }

  class Person: PersistentModel {
    @Attribute var name: String
    @Relationship var team: Team?
    @Relationship(originalName: "desks") var desk: Desk?
    @Relationship var favorites: [Desk]
    @Relationship(inverse: \Job.owner) var jobs: [Job]
  }

  class Job: PersistentModel {
    @Attribute var title: String
    @Relationship var owner: Person?
    @Relationship var reviewer: Person?
    @Relationship var client: Person?
  }

  final class Errand: Job {
    @Attribute var place: String?
  }
}

/// A person's jobs are those they review (the inverse moves from `Job.owner` to
/// `Job.reviewer`: all three relationships change their inverse).
enum OfficeReviewV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Team.self, Desk.self, Person.self, Job.self, Errand.self]
  }

  class Team: PersistentModel {
    @Attribute var name: String
  }

  class Desk: PersistentModel {
    @Attribute var label: String
  }

  class Person: PersistentModel {
    @Attribute var name: String
    @Relationship var team: Team?
    @Relationship var desks: [Desk]
    @Relationship var favorites: [Desk]
    @Relationship(inverse: \Job.reviewer) var jobs: [Job]
  }

  class Job: PersistentModel {
    @Attribute var title: String
    @Relationship var owner: Person?
    @Relationship var reviewer: Person?
    @Relationship var client: Person?
  }

  final class Errand: Job {
    @Attribute var place: String?
  }
}

/// What the office stages' code does, reading the old values through the old context.
enum OfficeStage {
  /// Each job's client becomes its old client's team; each person with a team gets it as
  /// only favorite. Other clients and favorites stay empty.
  static func move(_ old: ModelContext, _ new: ModelContext) throws {
    for job in try old.fetch(FetchDescriptor<OfficeV1.Job>(sortBy: [SortDescriptor(\.title)])) {
      guard let team = job.client?.team,
        let moved = new.model(for: job.persistentModelID) as? OfficeMovedV2.Job
      else { continue }
      moved.client = new.model(for: team.persistentModelID) as? OfficeMovedV2.Team
    }
    for person in try old.fetch(
      FetchDescriptor<OfficeV1.Person>(sortBy: [SortDescriptor(\.name)]))
    {
      guard let team = person.team,
        let moved = new.model(for: person.persistentModelID) as? OfficeMovedV2.Person,
        let favorite = new.model(for: team.persistentModelID) as? OfficeMovedV2.Team
      else { continue }
      moved.favorites = [favorite]
    }
  }

  /// A person with two desks or more keeps the last; the others have none.
  static func keepLastDesk(_ old: ModelContext, _ new: ModelContext) throws {
    for person in try old.fetch(
      FetchDescriptor<OfficeV1.Person>(sortBy: [SortDescriptor(\.name)]))
    where person.desks.count > 1 {
      guard let last = person.desks.last,
        let moved = new.model(for: person.persistentModelID) as? OfficeOneDeskV2.Person
      else { continue }
      moved.desk = new.model(for: last.persistentModelID) as? OfficeOneDeskV2.Desk
    }
  }

  /// Each job is reviewed by its old owner (which fills the owner's list of jobs through the
  /// new inverse); owners stay empty.
  static func reviewOwn(_ old: ModelContext, _ new: ModelContext) throws {
    for job in try old.fetch(FetchDescriptor<OfficeV1.Job>(sortBy: [SortDescriptor(\.title)])) {
      guard let owner = job.owner,
        let moved = new.model(for: job.persistentModelID) as? OfficeReviewV2.Job
      else { continue }
      moved.reviewer = new.model(for: owner.persistentModelID) as? OfficeReviewV2.Person
    }
  }
}

/// Version 1 to 2 with ``OfficeStage/move(_:_:)``.
enum OfficeMovePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [OfficeV1.self, OfficeMovedV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: OfficeV1.self, toVersion: OfficeMovedV2.self) {
        try OfficeStage.move($0, $1)
      }
    ]
  }
}

/// Version 1 to 2 with ``OfficeStage/keepLastDesk(_:_:)``.
enum OfficeOneDeskPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [OfficeV1.self, OfficeOneDeskV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: OfficeV1.self, toVersion: OfficeOneDeskV2.self) {
        try OfficeStage.keepLastDesk($0, $1)
      }
    ]
  }
}

/// Version 1 to 2 with ``OfficeStage/reviewOwn(_:_:)``.
enum OfficeReviewPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [OfficeV1.self, OfficeReviewV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: OfficeV1.self, toVersion: OfficeReviewV2.self) {
        try OfficeStage.reviewOwn($0, $1)
      }
    ]
  }
}
