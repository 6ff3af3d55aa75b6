import Testing

@testable import ModelGraphCore

/// Unique attributes and unique constraints checked in small saves on a store that many small
/// saves built, where the hash indexes are carried from version to version.
@Suite("Graph rules: uniqueness in small saves")
struct UniqueSmallSaveTests {
  static let account = 0
  static let premium = 1
  static let handle = 0
  static let region = 1
  static let code = 2

  /// `Account(handle unique, region, code)` with `(region, code)` unique, and `Premium: Account`.
  static func makeStore() throws -> Store {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Account",
        attributes: [
          AttributeDescription(name: "handle", valueType: .string, isUnique: true),
          AttributeDescription(name: "region", valueType: .int),
          AttributeDescription(name: "code", valueType: .string),
        ],
        uniqueConstraints: [["region", "code"]]),
      EntityDescription(name: "Premium", parent: "Account"),
    ])
    return store
  }

  /// Inserts an account of `entity` with its three values.
  static func insert(
    _ session: Session, _ entity: Int, handle: String, region: Int64, code: String
  ) -> ObjectKey {
    let key = session.insert(entity: entity)
    session.set(handle, slot: Self.handle, of: key)
    session.set(region, slot: Self.region, of: key)
    session.set(code, slot: Self.code, of: key)
    return key
  }

  /// A store built by 1,000 objects in one save and then 200 saves of one object each
  /// (alternating classes), each followed by a uniqueness check so every version's indexes
  /// are carried; returns the store and the keys, in insertion order.
  static func grownStore() throws -> (Store, [ObjectKey]) {
    let store = try makeStore()
    let session = Session(store: store)
    var keys: [ObjectKey] = []
    for index in 0..<1_000 {
      keys.append(
        insert(session, account, handle: "h\(index)", region: Int64(index % 10), code: "c\(index)"))
    }
    try session.save()
    for index in 1_000..<1_200 {
      keys.append(
        insert(
          session, index % 2 == 0 ? account : premium, handle: "h\(index)",
          region: Int64(index % 10), code: "c\(index)"))
      #expect(session.validate().isEmpty, "save \(index)")
      try session.save()
    }
    return (store, keys)
  }

  @Test(
    "a small save's duplicate is caught in either class of the hierarchy",
    arguments: [account, premium])
  func duplicateInserts(entity: Int) throws {
    let (store, _) = try Self.grownStore()
    let session = Session(store: store)
    // The same handle as an Account saved first, and as a Premium saved last.
    for handle in ["h3", "h1199"] {
      let key = Self.insert(session, entity, handle: handle, region: 99, code: "fresh-\(handle)")
      let violations = session.validate()
      #expect(violations.map(\.property) == ["handle"], "\(handle)")
      #expect(violations.map(\.key) == [key], "\(handle)")
      #expect(violations.allSatisfy { $0.rule == .notUnique })
      session.rollback()
    }
    // The same (region, code) as a saved Premium, under a new handle.
    let key = Self.insert(session, entity, handle: "new", region: 1_199 % 10, code: "c1199")
    let violations = session.validate()
    #expect(violations.map(\.property) == ["region+code"])
    #expect(violations.map(\.key) == [key])
    session.rollback()
    // Two new objects of the change set that collide with each other only.
    let first = Self.insert(session, Self.account, handle: "twin", region: 50, code: "x")
    let second = Self.insert(session, entity, handle: "twin", region: 51, code: "y")
    #expect(Set(session.validate().map(\.key)) == [first, second])
    session.rollback()
    // A unique value new to the store passes, and is caught once saved.
    _ = Self.insert(session, entity, handle: "unseen", region: 60, code: "z")
    #expect(session.validate().isEmpty)
    try session.save()
    _ = Self.insert(session, Self.premium, handle: "unseen", region: 61, code: "z")
    #expect(session.validate().map(\.property) == ["handle"])
  }

  @Test(
    "a session's small saves catch a value another session saved since, in either class",
    arguments: [account, premium])
  func duplicatesSavedElsewhere(entity: Int) throws {
    let (store, _) = try Self.grownStore()
    let session = Session(store: store)
    let other = Session(store: store)
    for round in 0..<4 {
      // This session checks and saves an object of the other class: the check reads the
      // views of both classes' tables.
      _ = Self.insert(
        session, entity == Self.account ? Self.premium : Self.account, handle: "mine\(round)",
        region: 80, code: "m\(round)")
      #expect(session.validate().isEmpty, "round \(round)")
      try session.save()
      // Another session saves a value into `entity`'s table only.
      _ = Self.insert(other, entity, handle: "theirs\(round)", region: 81, code: "t\(round)")
      #expect(other.validate().isEmpty, "round \(round)")
      try other.save()
      // This session moves onto that save: the same value in either class is a duplicate.
      session.refreshIfClean()
      for target in [Self.account, Self.premium] {
        let key = Self.insert(
          session, target, handle: "theirs\(round)", region: 82, code: "d\(round)")
        #expect(session.validate().map(\.key) == [key], "round \(round), class \(target)")
        session.rollback()
      }
    }
  }

  @Test("an update to a saved value is caught; swapping two values in one save is not")
  func duplicateUpdates() throws {
    let (store, keys) = try Self.grownStore()
    let session = Session(store: store)
    let premium = keys[1_199]
    let account = keys[10]
    #expect(Int(premium.entity) == Self.premium && Int(account.entity) == Self.account)
    session.set("h10", slot: Self.handle, of: premium)
    #expect(session.validate().map(\.key) == [premium])
    session.rollback()
    session.set("h1199", slot: Self.handle, of: account)
    session.set("h10", slot: Self.handle, of: premium)
    #expect(session.validate().isEmpty)
    try session.save()
    #expect(store.version.get(String.self, slot: Self.handle, of: account) == "h1199")
    // A deleted object's value is free again in the same small save.
    let other = Session(store: store)
    other.delete(keys[20])
    _ = Self.insert(other, Self.premium, handle: "h20", region: 0, code: "c20")
    #expect(other.validate().isEmpty)
  }

  @Test("upsert matching finds the saved object across the hierarchy after small saves")
  func upsertMatches() throws {
    let (store, keys) = try Self.grownStore()
    let session = Session(store: store)
    let byHandle = Self.insert(session, Self.account, handle: "h1199", region: 70, code: "u1")
    let byPair = Self.insert(session, Self.premium, handle: "u2", region: 4, code: "c4")
    let fresh = Self.insert(session, Self.premium, handle: "u3", region: 71, code: "u3")
    let candidates = [byHandle, byPair, fresh]
    let rules = session.uniqueRules(of: store.catalog.entities[Self.premium])
    let handleRule = try #require(rules.first { $0.slots == [Self.handle] })
    let pairRule = try #require(rules.first { $0.slots == [Self.region, Self.code] })
    #expect(
      session.uniqueMatches(for: handleRule, candidates: candidates, excluded: Set(candidates))
        == [keys[1_199], nil, nil])
    #expect(
      session.uniqueMatches(for: pairRule, candidates: candidates, excluded: Set(candidates))
        == [nil, keys[4], nil])
  }
}
