import Foundation
import ModelGraph
import ModelGraphCore
import Testing

/// One notification as a test sees it: its name and the identifier arrays of its `userInfo`.
struct LoggedNotification: Sendable {
  var name: Notification.Name
  var hasUserInfo: Bool
  var identifiers: [ModelContext.NotificationKey: [PersistentIdentifier]]
}

/// Collects the notifications of some names posted by one object.
final class NotificationLog {
  let entries = Locked<[LoggedNotification]>([])
  private let tokens: [any NSObjectProtocol]

  init(_ names: [Notification.Name], object: AnyObject) {
    var tokens: [any NSObjectProtocol] = []
    for name in names {
      let token = NotificationCenter.default.addObserver(
        forName: name, object: object, queue: nil
      ) { [entries] notification in
        var identifiers: [ModelContext.NotificationKey: [PersistentIdentifier]] = [:]
        for key in [
          ModelContext.NotificationKey.insertedIdentifiers, .updatedIdentifiers,
          .deletedIdentifiers,
        ] {
          identifiers[key] = notification.userInfo?[key.rawValue] as? [PersistentIdentifier]
        }
        let entry = LoggedNotification(
          name: notification.name, hasUserInfo: notification.userInfo != nil,
          identifiers: identifiers)
        entries.withLock { $0.append(entry) }
      }
      tokens.append(token)
    }
    self.tokens = tokens
  }

  func identifiers(_ key: ModelContext.NotificationKey, at index: Int) -> [PersistentIdentifier]? {
    entries.withLock { $0[index].identifiers[key] }
  }

  deinit {
    for token in tokens { NotificationCenter.default.removeObserver(token) }
  }
}

@Suite("Save notifications")
struct SaveNotificationTests {
  @Test("willSave then didSave with inserted, updated and deleted identifiers")
  func notificationsCarryIdentifiers() throws {
    let context = try makeTripContext()
    let log = NotificationLog([ModelContext.willSave, ModelContext.didSave], object: context)
    let trip = Trip(name: "Oslo")
    let other = Trip(name: "Rome")
    context.insert(trip)
    context.insert(other)
    try context.save()
    trip.name = "Bergen"
    context.delete(other)
    try context.save()
    let names = log.entries.withLock { $0.map(\.name) }
    #expect(
      names == [
        ModelContext.willSave, ModelContext.didSave, ModelContext.willSave, ModelContext.didSave,
      ])
    #expect(log.entries.withLock { !$0[0].hasUserInfo })
    #expect(
      Set(log.identifiers(.insertedIdentifiers, at: 1) ?? []) == [
        trip.persistentModelID, other.persistentModelID,
      ])
    #expect(log.identifiers(.updatedIdentifiers, at: 1) == [])
    #expect(log.identifiers(.insertedIdentifiers, at: 3) == [])
    #expect(log.identifiers(.updatedIdentifiers, at: 3) == [trip.persistentModelID])
    #expect(log.identifiers(.deletedIdentifiers, at: 3) == [other.persistentModelID])
  }

  @Test("a refused save posts willSave and no didSave")
  func refusedSavePostsNoDidSave() throws {
    let context = try makeTripContext()
    let log = NotificationLog([ModelContext.willSave, ModelContext.didSave], object: context)
    let trip = Trip()
    context.insert(trip)
    #expect(throws: ModelError.self) { try context.save() }
    #expect(log.entries.withLock { $0.map(\.name) } == [ModelContext.willSave])
  }

  @Test("the key names are SwiftData's")
  func keyNames() {
    #expect(ModelContext.NotificationKey.insertedIdentifiers.rawValue == "insertedIdentifiers")
    #expect(ModelContext.NotificationKey.updatedIdentifiers.rawValue == "updatedIdentifiers")
    #expect(ModelContext.NotificationKey.deletedIdentifiers.rawValue == "deletedIdentifiers")
  }
}
