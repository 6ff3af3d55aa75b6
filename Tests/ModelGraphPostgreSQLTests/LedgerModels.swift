import Foundation
import ModelGraph

@testable import ModelGraphPostgreSQL

/// Accounts and their entries, some of them refunds (a subclass in its own table).
enum LedgerV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Account.self, Entry.self, Refund.self] }

  class Account: PersistentModel {
    @Attribute var name: String
  }

  class Entry: PersistentModel {
    @Attribute var amount: Int
    @Relationship var account: Account?
  }

  final class Refund: Entry {
    @Attribute var reason: String?
  }
}

/// An entry's amount becomes text (a type change: code converts it), it gains a code unique
/// among entries of every class, an account counts its entries (required, no initial value),
/// and a summary class is new.
enum LedgerV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] {
    [Account.self, Entry.self, Refund.self, Summary.self]
  }

  class Account: PersistentModel {
    @Attribute var name: String
    @Attribute var entryCount: Int
  }

  class Entry: PersistentModel {
    @Attribute var amount: String
    @Attribute(.unique) var code: String?
    @Relationship var account: Account?
  }

  final class Refund: Entry {
    @Attribute var reason: String?
  }

  class Summary: PersistentModel {
    @Attribute var total: Int
    @Attribute var refunds: Int
  }
}

/// The stopping error of ``LedgerThrowingPlan``.
struct LedgerStop: Error {}

/// What the ledger's custom stages do.
enum LedgerStage {
  /// Converts every amount, counts each account's entries, and records the counts the two
  /// contexts give over whole tables in a new summary. With `deletingNegative`, entries with
  /// a negative amount are deleted first; with `duplicateCodes`, the refund and the entry of
  /// 10 get the same code; with `throwing`, the closure throws once everything is changed; with
  /// `leavingCounts`, the accounts' counts stay unset; with `addingEntry`, a new entry of 1 in
  /// account A is inserted too.
  static func migrate(
    _ old: ModelContext, _ new: ModelContext, deletingNegative: Bool = false,
    duplicateCodes: Bool = false, throwing: Bool = false, leavingCounts: Bool = false,
    addingEntry: Bool = false
  ) throws {
    // Fetches and counts first, before any change.
    let accounts = try new.fetch(FetchDescriptor<LedgerV2.Account>())
    let entries = try new.fetch(FetchDescriptor<LedgerV2.Entry>())
    let total = try new.fetchCount(FetchDescriptor<LedgerV2.Entry>())
    let refunds = try old.fetchCount(FetchDescriptor<LedgerV1.Refund>())
    var amounts: [PersistentIdentifier: Int] = [:]
    for entry in try old.fetch(FetchDescriptor<LedgerV1.Entry>()) {
      amounts[entry.persistentModelID] = entry.amount
    }
    var kept: [LedgerV2.Entry] = []
    for entry in entries {
      let amount = amounts[entry.persistentModelID] ?? 0
      if deletingNegative, amount < 0 {
        new.delete(entry)
        continue
      }
      entry.amount = "\(amount) EUR"
      // Duplicates: the refund's code is a plain entry's, in another table.
      let shared = duplicateCodes && (entry is LedgerV2.Refund || amount == 10)
      entry.code = shared ? "same" : "c\(amount)"
      kept.append(entry)
    }
    if addingEntry, let account = accounts.first(where: { $0.name == "A" }) {
      let entry = LedgerV2.Entry()
      entry.amount = "1 EUR"
      entry.code = "c-new"
      new.insert(entry)
      entry.account = account
      kept.append(entry)
    }
    if !leavingCounts {
      for account in accounts {
        account.entryCount =
          kept.filter { $0.account?.persistentModelID == account.persistentModelID }.count
      }
    }
    let summary = LedgerV2.Summary()
    summary.total = total
    summary.refunds = refunds
    new.insert(summary)
    if throwing { throw LedgerStop() }
  }
}

/// Version 1 to 2 with ``LedgerStage/migrate(_:_:deletingNegative:duplicateCodes:throwing:leavingCounts:addingEntry:)``.
enum LedgerPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1)
      }
    ]
  }
}

/// As ``LedgerPlan``, deleting the entries with a negative amount.
enum LedgerDeletingPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1, deletingNegative: true)
      }
    ]
  }
}

/// As ``LedgerPlan``, inserting an entry with an account (a foreign key to check at the
/// commit) before the stage makes the owed amounts required.
enum LedgerAddingPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1, addingEntry: true)
      }
    ]
  }
}

/// As ``LedgerPlan``, then throws.
enum LedgerThrowingPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1, throwing: true)
      }
    ]
  }
}

/// As ``LedgerPlan``, giving a plain entry and a refund the same unique code.
enum LedgerDuplicatePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1, duplicateCodes: true)
      }
    ]
  }
}

/// As ``LedgerPlan``, leaving the accounts' required counts unset.
enum LedgerIncompletePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) {
        try LedgerStage.migrate($0, $1, leavingCounts: true)
      }
    ]
  }
}

/// As ``LedgerPlan``, after a read of the old entries that the server refuses (an injected
/// fault: the store runs a failing statement in place of the read's), which the stage
/// catches; it throws ``LedgerStop`` if that read does not fail.
enum LedgerRefusedReadPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self) { old, new in
        let store = old.container.store.persistence as? PostgreSQLStore
        store?.injectFault =
          OneFault(.refuse) { $0.hasPrefix("SELECT") || $0.hasPrefix("WITH") }
          .hook
        defer { store?.injectFault = nil }
        let refused: Bool
        do {
          _ = try old.fetch(
            FetchDescriptor<LedgerV1.Entry>(predicate: #Predicate { $0.amount > 1 }))
          refused = false
        } catch {
          refused = true
        }
        guard refused else { throw LedgerStop() }
        try LedgerStage.migrate(old, new)
      }
    ]
  }
}
