import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  /// Accounts A and B (and those `alsoAccounts` names, with no entries); entries of 10 and -5
  /// in A, 7 in B, and a refund of 3 in B.
  static func seedLedger(_ url: URL, alsoAccounts: [String] = []) throws {
    let context = ModelContext(
      try ModelContainer(for: LedgerV1.models, configurations: [ModelConfiguration(url: url)]))
    let accounts = (["A", "B"] + alsoAccounts).map { name in
      let account = LedgerV1.Account()
      account.name = name
      context.insert(account)
      return account
    }
    for (amount, account) in [(10, 0), (-5, 0), (7, 1)] {
      let entry = LedgerV1.Entry()
      entry.amount = amount
      context.insert(entry)
      entry.account = accounts[account]
    }
    let refund = LedgerV1.Refund()
    refund.amount = 3
    refund.reason = "late"
    context.insert(refund)
    refund.account = accounts[1]
    try context.save()
  }

  /// What the migrated ledger holds: entries by code (class, amount, account, identifier),
  /// accounts with their counts, summaries.
  static func ledgerContents(_ context: ModelContext) throws -> [String] {
    let entries = try context.fetch(
      FetchDescriptor<LedgerV2.Entry>(sortBy: [SortDescriptor(\.amount)]))
    let accounts = try context.fetch(
      FetchDescriptor<LedgerV2.Account>(sortBy: [SortDescriptor(\.name)]))
    let summaries = try context.fetch(FetchDescriptor<LedgerV2.Summary>())
    return entries.map {
      "\(type(of: $0)) \($0.code ?? "-") \($0.amount) \($0.account?.name ?? "-") "
        + "\($0.persistentModelID)"
    } + accounts.map { "\($0.name) \($0.entryCount)" }
      + summaries.map { "summary \($0.total) \($0.refunds)" }
  }

  static func openLedger(
    plan: any SchemaMigrationPlan.Type, at url: URL, fetched: Bool
  ) throws -> ModelContainer {
    fetched
      ? try Self.open(LedgerV2.models, plan: plan, at: url)
      : try ModelContainer(
        for: LedgerV2.models, migrationPlan: plan, configurations: [ModelConfiguration(url: url)])
  }

  /// Seeds two fresh databases alike (accounts `alsoAccounts` added), migrates one in the
  /// database with `plan` (residency=fetched) and the other in memory with `inMemoryPlan`
  /// (`plan` when `nil`); returns the first's URL and the contents of both.
  static func migratedBothWays(
    _ plan: any SchemaMigrationPlan.Type,
    inMemory inMemoryPlan: (any SchemaMigrationPlan.Type)? = nil,
    alsoAccounts: [String] = []
  ) throws -> (inDatabase: URL, fetched: [String], expected: [String]) {
    let inDatabase = try TestServer.freshURL()
    let inMemory = try TestServer.freshURL()
    try Self.seedLedger(inDatabase, alsoAccounts: alsoAccounts)
    try Self.seedLedger(inMemory, alsoAccounts: alsoAccounts)
    let fetched = try Self.ledgerContents(
      ModelContext(try Self.openLedger(plan: plan, at: inDatabase, fetched: true)))
    let expected = try Self.ledgerContents(
      ModelContext(try Self.openLedger(plan: inMemoryPlan ?? plan, at: inMemory, fetched: false)))
    return (inDatabase, fetched, expected)
  }

  static func state(_ url: URL) throws -> [String?] {
    try TestServer.query("SELECT version || ' ' || schema_version FROM mg_state", at: url)
  }

  @Test(
    "a custom stage's code fetches, counts and saves in the database's transaction: amounts converted, counts over whole tables, the same objects as in memory"
  )
  func customStageRewrites() throws {
    let inDatabase = try TestServer.freshURL()
    let inMemory = try TestServer.freshURL()
    try Self.seedLedger(inDatabase)
    try Self.seedLedger(inMemory)
    let version = try TestServer.query("SELECT version FROM mg_state", at: inDatabase)
    let container = try Self.openLedger(plan: LedgerPlan.self, at: inDatabase, fetched: true)
    let store = try #require(container.store.persistence as? PostgreSQLStore)
    #expect(store.keepsOnlyFetched)
    let migrated = (version[0].flatMap(Int.init) ?? 0) + 1
    #expect(try Self.state(inDatabase) == ["\(migrated) \(migrated)"])
    let fetched = try Self.ledgerContents(ModelContext(container))
    let expected = try Self.ledgerContents(
      ModelContext(try Self.openLedger(plan: LedgerPlan.self, at: inMemory, fetched: false)))
    #expect(fetched == expected)
    #expect(fetched.count == 7)
    #expect(fetched.filter { $0.hasPrefix("Refund c3 3 EUR B") }.count == 1)
    #expect(fetched.suffix(3) == ["A 2", "B 2", "summary 4 1"])
    // The owed columns hold a value everywhere and are required again; no copy is left.
    #expect(
      try TestServer.query(
        "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable "
          + "FROM information_schema.columns WHERE table_schema = current_schema() AND "
          + "column_name IN ('amount', 'entryCount') ORDER BY 1", at: inDatabase)
        == [
          "Account.entryCount bigint NO", "Entry.amount text NO", "Refund.amount text NO",
        ])
    #expect(
      try TestServer.query(
        "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'mg_stage_%'", at: inDatabase)
        == ["0"])
  }

  @Test(
    "a custom stage that sets an owed attribute to its empty value (a count of 0) writes it: the column is NULL until then"
  )
  func customStageWritesEmptyValues() throws {
    let (inDatabase, fetched, expected) = try Self.migratedBothWays(
      LedgerPlan.self, alsoAccounts: ["C"])
    #expect(fetched == expected)
    #expect(fetched.suffix(4) == ["A 2", "B 2", "C 0", "summary 4 1"])
    #expect(
      try TestServer.query(
        "SELECT \"entryCount\" FROM \"Account\" ORDER BY name", at: inDatabase)
        == ["2", "2", "0"])
  }

  @Test(
    "a stage read the server refuses, caught by the stage, leaves the migration's transaction usable: the rest of the stage migrates as without it"
  )
  func customStageRefusedRead() throws {
    let (_, fetched, expected) = try Self.migratedBothWays(
      LedgerRefusedReadPlan.self, inMemory: LedgerPlan.self)
    #expect(fetched == expected)
    #expect(fetched.suffix(3) == ["A 2", "B 2", "summary 4 1"])
  }

  @Test(
    "a custom stage that inserts an object with a reference, then has its owed attributes made required: the pending foreign-key check does not stop the ALTER TABLE"
  )
  func customStageInsertsReference() throws {
    let (inDatabase, fetched, expected) = try Self.migratedBothWays(LedgerAddingPlan.self)
    // The new object's row is the store's to choose (PostgreSQL reserves blocks of rows).
    let withoutNewRow = { (lines: [String]) in
      lines.map { $0.hasPrefix("Entry c-new ") ? "Entry c-new 1 EUR A" : $0 }
    }
    #expect(withoutNewRow(fetched) == withoutNewRow(expected))
    #expect(fetched.filter { $0.hasPrefix("Entry c-new 1 EUR A") }.count == 1)
    #expect(fetched.suffix(3) == ["A 3", "B 2", "summary 4 1"])
    #expect(
      try TestServer.query(
        "SELECT count(*) FROM \"Entry\" WHERE account IS NOT NULL", at: inDatabase)
        == ["4"])
  }

  @Test("a custom stage that deletes objects: they are gone in the database, as in memory")
  func customStageDeletes() throws {
    let (inDatabase, fetched, expected) = try Self.migratedBothWays(LedgerDeletingPlan.self)
    #expect(fetched == expected)
    #expect(fetched.suffix(3) == ["A 1", "B 2", "summary 4 1"])
    #expect(try TestServer.query("SELECT count(*) FROM \"Entry\"", at: inDatabase) == ["2"])
    #expect(
      try TestServer.query("SELECT amount FROM \"Entry\" ORDER BY amount", at: inDatabase)
        == ["10 EUR", "7 EUR"])
  }

  /// The schema, data and versions of a ledger that must not have changed.
  static func ledgerUnchanged(_ url: URL) throws -> [String?] {
    try Self.state(url) + Self.columns("Entry", at: url) + Self.columns("Account", at: url)
      + TestServer.query("SELECT amount::text FROM \"Entry\" ORDER BY amount", at: url)
      + TestServer.query("SELECT to_regclass('\"Summary\"')::text", at: url)
  }

  @Test(
    "a custom stage that throws rolls everything back: schema, data, mg_state unchanged, and the old classes still open"
  )
  func customStageThrows() throws {
    let url = try TestServer.freshURL()
    try Self.seedLedger(url)
    let before = try Self.ledgerUnchanged(url)
    #expect(before.contains("amount") && before.contains("-5"))
    #expect(throws: LedgerStop.self) {
      _ = try Self.openLedger(plan: LedgerThrowingPlan.self, at: url, fetched: true)
    }
    #expect(try Self.ledgerUnchanged(url) == before)
    let context = ModelContext(try Self.open(LedgerV1.models, plan: nil, at: url))
    #expect(
      try context.fetch(FetchDescriptor<LedgerV1.Entry>(sortBy: [SortDescriptor(\.amount)]))
        .map(\.amount) == [-5, 3, 7, 10])
  }

  @Test(
    "a custom stage's save that breaks a unique rule across a class hierarchy fails the migration, as in memory, and nothing changes"
  )
  func customStageUniqueAcrossHierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedLedger(url)
    let before = try Self.ledgerUnchanged(url)
    let error = #expect(throws: ModelError.self) {
      _ = try Self.openLedger(plan: LedgerDuplicatePlan.self, at: url, fetched: true)
    }
    #expect(error?.code == .validationFailed)
    #expect(try Self.ledgerUnchanged(url) == before)
    let inMemory = try TestServer.freshURL()
    try Self.seedLedger(inMemory)
    let same = #expect(throws: ModelError.self) {
      _ = try Self.openLedger(plan: LedgerDuplicatePlan.self, at: inMemory, fetched: false)
    }
    #expect(same?.code == .validationFailed)
  }

  @Test("a custom stage that leaves a required attribute unset fails, naming it, as in memory")
  func customStageIncomplete() throws {
    let url = try TestServer.freshURL()
    try Self.seedLedger(url)
    let before = try Self.ledgerUnchanged(url)
    let error = #expect(throws: MigrationError.self) {
      _ = try Self.openLedger(plan: LedgerIncompletePlan.self, at: url, fetched: true)
    }
    #expect(error?.code == .incompleteCustomStage)
    #expect(error?.message.contains("custom stage 1.0.0 -> 2.0.0") == true)
    #expect(error?.message.contains("Account.entryCount on 2 objects") == true)
    #expect(try Self.ledgerUnchanged(url) == before)
    let inMemory = try TestServer.freshURL()
    try Self.seedLedger(inMemory)
    let same = #expect(throws: MigrationError.self) {
      _ = try Self.openLedger(plan: LedgerIncompletePlan.self, at: inMemory, fetched: false)
    }
    #expect(same?.message.contains("Account.entryCount on 2 objects") == true)
  }
}
