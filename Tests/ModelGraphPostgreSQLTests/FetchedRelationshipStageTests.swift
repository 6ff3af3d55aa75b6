import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  /// Teams Red and Blue, desks d1 to d3; Ann (Red, desks d1 d2, favorite d3), Bob (no team,
  /// desk d3, favorites d1 d2), Cy (Blue, nothing else); jobs j1 (owner Ann, reviewer Bob,
  /// client Ann), j2 (owner Ann, client Bob), j3 (an errand: owner Bob, reviewer Ann, client
  /// Cy), j4 (reviewer Bob).
  static func seedOffice(_ url: URL) throws {
    let container = try ModelContainer(
      for: OfficeV1.models, configurations: [ModelConfiguration(url: url)])
    let context = ModelContext(container)
    let teams = ["Red", "Blue"].map { name in
      let team = OfficeV1.Team()
      team.name = name
      context.insert(team)
      return team
    }
    let desks = ["d1", "d2", "d3"].map { label in
      let desk = OfficeV1.Desk()
      desk.label = label
      context.insert(desk)
      return desk
    }
    let people = ["Ann", "Bob", "Cy"].map { name in
      let person = OfficeV1.Person()
      person.name = name
      context.insert(person)
      return person
    }
    let (ann, bob, cy) = (people[0], people[1], people[2])
    ann.team = teams[0]
    cy.team = teams[1]
    ann.desks = [desks[0], desks[1]]
    bob.desks = [desks[2]]
    ann.favorites = [desks[2]]
    bob.favorites = [desks[0], desks[1]]
    let cast: [(OfficeV1.Person?, OfficeV1.Person?, OfficeV1.Person?)] = [
      (ann, bob, ann), (ann, nil, bob), (bob, ann, cy), (nil, bob, nil),
    ]
    for (index, (owner, reviewer, client)) in cast.enumerated() {
      // j3 is an errand: the inherited relationships live in its own table.
      let job = index == 2 ? OfficeV1.Errand() : OfficeV1.Job()
      job.title = "j\(index + 1)"
      context.insert(job)
      job.owner = owner
      job.reviewer = reviewer
      job.client = client
    }
    try context.save()
  }

  /// Seeds an office in a store file (migrated by the in-memory engine), in a PostgreSQL
  /// database opened with every object, and in one opened with `residency=fetched` (migrated
  /// in the database); migrates each with `plan` and returns what `contents` reads in each,
  /// and the last one's URL.
  static func officeMigrated(
    _ plan: any SchemaMigrationPlan.Type, types: [any PersistentModel.Type],
    contents: (ModelContext) throws -> [String]
  ) throws -> (file: [String], loaded: [String], fetched: [String], url: URL) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let file = scratch.appendingPathComponent("office.mgs")
    let loaded = try TestServer.freshURL()
    let fetched = try TestServer.freshURL()
    for url in [file, loaded, fetched] { try Self.seedOffice(url) }
    func migrated(_ url: URL) throws -> [String] {
      try contents(
        ModelContext(
          try ModelContainer(
            for: types, migrationPlan: plan, configurations: [ModelConfiguration(url: url)])))
    }
    return (
      try migrated(file), try migrated(loaded),
      try migrated(PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(fetched)), fetched
    )
  }

  /// `names` joined with commas, or `-`.
  static func list(_ names: [String]) -> String {
    names.isEmpty ? "-" : names.joined(separator: ",")
  }

  /// The table a foreign key of `table`'s column `column` references, for each such key.
  static func foreignKeyTargets(_ table: String, _ column: String, at url: URL) throws
    -> [String?]
  {
    try TestServer.query(
      "SELECT c.confrelid::regclass::text FROM pg_constraint c JOIN pg_attribute a ON "
        + "a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey) WHERE c.contype = 'f' AND "
        + "c.conrelid = '\"\(table)\"'::regclass AND a.attname = '\(column)' ORDER BY 1",
      at: url)
  }

  static func movedContents(_ context: ModelContext) throws -> [String] {
    let people = try context.fetch(
      FetchDescriptor<OfficeMovedV2.Person>(sortBy: [SortDescriptor(\.name)]))
    let jobs = try context.fetch(
      FetchDescriptor<OfficeMovedV2.Job>(sortBy: [SortDescriptor(\.title)]))
    return people.map {
      "\($0.name) team \($0.team?.name ?? "-") desks \(list($0.desks.map(\.label))) "
        + "favorites \(list($0.favorites.map(\.name))) jobs \(list($0.jobs.map(\.title)))"
    }
      + jobs.map {
        "\($0.title) owner \($0.owner?.name ?? "-") reviewer \(list($0.reviewer.map(\.name))) "
          + "client \($0.client?.name ?? "-")"
      }
  }

  @Test(
    "a custom stage that changes relationships' destinations: their stored values start empty and the stage's code refills them from the old context, as in memory and with every object loaded"
  )
  func customStageChangesDestination() throws {
    let result = try Self.officeMigrated(
      OfficeMovePlan.self, types: OfficeMovedV2.models, contents: Self.movedContents)
    #expect(
      result.file == [
        "Ann team Red desks d1,d2 favorites Red jobs j1,j2",
        "Bob team - desks d3 favorites - jobs j3",
        "Cy team Blue desks - favorites Blue jobs -",
        "j1 owner Ann reviewer - client Red",
        "j2 owner Ann reviewer - client -",
        "j3 owner Bob reviewer - client Blue",
        "j4 owner - reviewer - client -",
      ])
    #expect(result.loaded == result.file)
    #expect(result.fetched == result.file)
    // The client's foreign key points at the new destination.
    #expect(try Self.foreignKeyTargets("Job", "client", at: result.url) == ["\"Team\""])
    #expect(try Self.foreignKeyTargets("Errand", "client", at: result.url) == ["\"Team\""])
    #expect(
      try TestServer.query("SELECT count(*) FROM \"Person.favorites\"", at: result.url) == ["2"])
    #expect(try TestServer.query("SELECT count(*) FROM \"Job.reviewer\"", at: result.url) == ["0"])
  }

  static func oneDeskContents(_ context: ModelContext) throws -> [String] {
    let people = try context.fetch(
      FetchDescriptor<OfficeOneDeskV2.Person>(sortBy: [SortDescriptor(\.name)]))
    let jobs = try context.fetch(
      FetchDescriptor<OfficeOneDeskV2.Job>(sortBy: [SortDescriptor(\.title)]))
    return people.map {
      "\($0.name) team \($0.team?.name ?? "-") desk \($0.desk?.label ?? "-") "
        + "favorites \(list($0.favorites.map(\.label))) jobs \(list($0.jobs.map(\.title)))"
    }
      + jobs.map {
        "\($0.title) owner \($0.owner?.name ?? "-") reviewer \($0.reviewer?.name ?? "-") "
          + "client \($0.client?.name ?? "-")"
      }
  }

  @Test(
    "a custom stage that makes a to-many a to-one: the list is not carried over, the stage's code sets the reference from the old list, as in memory and with every object loaded"
  )
  func customStageMakesToOne() throws {
    let result = try Self.officeMigrated(
      OfficeOneDeskPlan.self, types: OfficeOneDeskV2.models, contents: Self.oneDeskContents)
    #expect(
      result.file == [
        "Ann team Red desk d2 favorites d3 jobs j1,j2",
        "Bob team - desk - favorites d1,d2 jobs j3",
        "Cy team Blue desk - favorites - jobs -",
        "j1 owner Ann reviewer Bob client Ann",
        "j2 owner Ann reviewer - client Bob",
        "j3 owner Bob reviewer Ann client Cy",
        "j4 owner - reviewer Bob client -",
      ])
    #expect(result.loaded == result.file)
    #expect(result.fetched == result.file)
    // The join table is gone; the column has its foreign key.
    #expect(
      try TestServer.query("SELECT to_regclass('\"Person.desks\"')::text", at: result.url)
        == [nil])
    #expect(try Self.foreignKeyTargets("Person", "desk", at: result.url) == ["\"Desk\""])
  }

  static func reviewContents(_ context: ModelContext) throws -> [String] {
    let people = try context.fetch(
      FetchDescriptor<OfficeReviewV2.Person>(sortBy: [SortDescriptor(\.name)]))
    let jobs = try context.fetch(
      FetchDescriptor<OfficeReviewV2.Job>(sortBy: [SortDescriptor(\.title)]))
    return people.map {
      "\($0.name) team \($0.team?.name ?? "-") desks \(list($0.desks.map(\.label))) "
        + "favorites \(list($0.favorites.map(\.label))) jobs \(list($0.jobs.map(\.title)))"
    }
      + jobs.map {
        "\($0.title) owner \($0.owner?.name ?? "-") reviewer \($0.reviewer?.name ?? "-") "
          + "client \($0.client?.name ?? "-")"
      }
  }

  @Test(
    "a custom stage that moves an inverse: the relationships of both pairings start empty, the stage's code refills one side and the inverse follows, as in memory and with every object loaded"
  )
  func customStageChangesInverse() throws {
    let result = try Self.officeMigrated(
      OfficeReviewPlan.self, types: OfficeReviewV2.models, contents: Self.reviewContents)
    #expect(
      result.file == [
        "Ann team Red desks d1,d2 favorites d3 jobs j1,j2",
        "Bob team - desks d3 favorites d1,d2 jobs j3",
        "Cy team Blue desks - favorites - jobs -",
        "j1 owner - reviewer Ann client Ann",
        "j2 owner - reviewer Ann client Bob",
        "j3 owner - reviewer Bob client Cy",
        "j4 owner - reviewer - client -",
      ])
    #expect(result.loaded == result.file)
    #expect(result.fetched == result.file)
    #expect(
      try TestServer.query(
        "SELECT count(*) FROM \"Job\" WHERE owner IS NOT NULL UNION ALL SELECT count(*) FROM "
          + "\"Errand\" WHERE owner IS NOT NULL", at: result.url) == ["0", "0"])
  }
}
