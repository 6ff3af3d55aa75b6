import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ModelGraphCore

/// Each frozen table version keeps its own indexes, and a version published over another gets
/// the indexes built for that one carried to it, so no older version stays alive for them.
@Suite("Index: each version's table keeps its indexes, carried when it is published")
struct IndexShelfTests {
  static let daysHash = IndexDefinition(.hash, on: "days")
  static let daysOrdered = IndexDefinition(.ordered, on: "days")

  /// The view of `definition` over the committed version of the trip table.
  static func view(_ store: Store, _ definition: IndexDefinition) throws -> any TableIndex {
    let tables = store.version.tables
    let resolver = IndexResolver(
      tables: tables, committedTables: tables, hasPendingChanges: false)
    return try #require(resolver.view(definition, entity: store.catalog.entities[Fixture.trip]))
  }

  /// A store with 200 trips of 0 to 19 days, saved, and both indexes of `days` read once.
  static func storeWithIndexes() throws -> (Store, Session, [ObjectKey]) {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let keys = (0..<200).map {
      session.insert(entity: Fixture.trip, name: "t\($0)", days: Int64($0 % 20))
    }
    try session.save()
    _ = try view(store, daysHash)
    _ = try view(store, daysOrdered)
    return (store, session, keys)
  }

  @Test("a save carries the indexes built for the version it publishes over, before any read")
  func carriedAtPublish() throws {
    let (store, session, keys) = try Self.storeWithIndexes()
    session.set(Int64(3), slot: Fixture.days, of: keys[0])
    _ = session.insert(entity: Fixture.trip, name: "new", days: 3)
    try session.save()
    let table = store.version.tables[Fixture.trip]
    let shelved = Set(table.indexShelf?.definitions ?? [])
    #expect(shelved == [Self.daysHash, Self.daysOrdered])
    // A table the save did not write keeps what it had: nothing was read of it.
    #expect(store.version.tables[Fixture.business].indexShelf == nil)
    for definition in [Self.daysHash, Self.daysOrdered] {
      let view = try Self.view(store, definition)
      #expect(view.count == 201)
      #expect(view.rows(equalTo: [.int(3)])?.count == 12)
      #expect(view.rows(equalTo: [.int(0)])?.count == 9)
    }
  }

  @Test("a save carries an index without making its view; the first reader makes it")
  func carriedWithoutView() throws {
    let (store, session, keys) = try Self.storeWithIndexes()
    session.set(Int64(4), slot: Fixture.days, of: keys[2])
    _ = session.insert(entity: Fixture.trip, name: "new", days: 4)
    try session.save()
    let shelf = try #require(store.version.tables[Fixture.trip].indexShelf)
    for definition in [Self.daysHash, Self.daysOrdered] {
      let carried = try #require(shelf.built(definition))
      #expect(!carried.hasView, "\(definition.kind)")
      #expect(try Self.view(store, definition).rows(equalTo: [.int(4)])?.count == 12)
      #expect(carried.hasView, "\(definition.kind)")
    }
  }

  @Test("the version a save published over is freed once no session reads it")
  func previousVersionFreed() throws {
    let (store, session, keys) = try Self.storeWithIndexes()
    weak let previous = store.version.tables[Fixture.trip]
    #expect(previous != nil)
    session.set(Int64(5), slot: Fixture.days, of: keys[1])
    try session.save()
    // Reading the new version's indexes does not bring the old version back.
    #expect(try Self.view(store, Self.daysHash).rows(equalTo: [.int(5)])?.count == 11)
    #expect(try Self.view(store, Self.daysOrdered).rows(equalTo: [.int(5)])?.count == 11)
    #expect(previous == nil, "the previous version of the table is still held")
  }

  @Test("a session reading an older version keeps that version's indexes")
  func olderReaderKeepsItsIndexes() throws {
    let (store, writer, keys) = try Self.storeWithIndexes()
    let reader = Session(store: store)
    for step in 0..<40 {
      writer.set(Int64(19), slot: Fixture.days, of: keys[step])
      try writer.save()
    }
    let tables = reader.base.tables
    let resolver = IndexResolver(
      tables: tables, committedTables: tables, hasPendingChanges: false)
    let entity = store.catalog.entities[Fixture.trip]
    let old = try #require(resolver.view(Self.daysHash, entity: entity))
    #expect(old.rows(equalTo: [.int(19)])?.count == 10)
    #expect(try Self.view(store, Self.daysHash).rows(equalTo: [.int(19)])?.count == 48)
  }

  @Test("a reader that asks for an index another reader is building waits for that one")
  func concurrentReadersBuildOnce() throws {
    let (store, _, _) = try Self.storeWithIndexes()
    let table = store.version.tables[Fixture.trip]
    let shelf = table.makeIndexShelf()
    let definition = IndexDefinition(.hash, on: "name")
    let slot = try #require(table.entity.attributeSlot(named: "name"))
    let started = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let first = Mutex<HashBuilt<String>?>(nil)
    Thread.detachNewThread {
      let made = shelf.index(
        definition,
        make: {
          started.signal()
          go.wait()
          return HashBuilt<String>(definition, slot: slot, table: table)
        })
      first.withLock { $0 = made }
      done.signal()
    }
    started.wait()
    let secondMakes = Mutex(0)
    let second = Mutex<HashBuilt<String>?>(nil)
    Thread.detachNewThread {
      let found = shelf.index(
        definition,
        make: {
          secondMakes.withLock { $0 += 1 }
          return HashBuilt<String>(definition, slot: slot, table: table)
        })
      second.withLock { $0 = found }
      done.signal()
    }
    // The second reader finds the build under way (or, scheduled late, the index built).
    usleep(20_000)
    go.signal()
    done.wait()
    done.wait()
    #expect(secondMakes.withLock { $0 } == 0, "the second reader built the index again")
    let one = try #require(first.withLock { $0 })
    let two = try #require(second.withLock { $0 })
    #expect(one === two)
    #expect(shelf.built(definition) as AnyObject === one)
  }

  @Test("a version published from elsewhere carries the indexes too")
  func foreignVersionCarried() throws {
    let (store, _, keys) = try Self.storeWithIndexes()
    try store.publishForeign { current in
      var tables = current.tables
      let table = tables[Fixture.trip].copy()
      table.column(Fixture.days, as: Int64.self)[Int(keys[2].row)] = 7
      table.setDead(row: Int(keys[3].row))
      tables[Fixture.trip] = table
      return (current.catalog, tables, [Fixture.trip: [Int(keys[2].row), Int(keys[3].row)]])
    }
    let table = store.version.tables[Fixture.trip]
    #expect(Set(table.indexShelf?.definitions ?? []) == [Self.daysHash, Self.daysOrdered])
    for definition in [Self.daysHash, Self.daysOrdered] {
      let view = try Self.view(store, definition)
      #expect(view.count == 199)
      for days in Int64(0)..<20 {
        let expected = HashIndexVersionTests.scan(table, days: days)
        #expect(view.rows(equalTo: [.int(days)]) == expected, "days \(days)")
      }
    }
  }
}

extension IndexShelfTests {
  @Test("two indexes of one kind on attributes with names of one length stay apart on a shelf")
  func definitionsOfOneShapeStayApart() throws {
    let (store, session, keys) = try Self.storeWithIndexes()
    let namesHash = IndexDefinition(.hash, on: "name")
    _ = try Self.view(store, namesHash)
    session.set("renamed", slot: Fixture.name, of: keys[0])
    session.set(Int64(6), slot: Fixture.days, of: keys[0])
    try session.save()
    let shelf = try #require(store.version.tables[Fixture.trip].indexShelf)
    #expect(Set(shelf.definitions) == [Self.daysHash, Self.daysOrdered, namesHash])
    #expect(shelf.definitions.count == 3)
    #expect(
      try Self.view(store, namesHash).rows(equalTo: [.string("renamed")]) == [
        Int32(keys[0].row)
      ])
    #expect(try Self.view(store, namesHash).rows(equalTo: [.string("t0")]) == [])
    #expect(try Self.view(store, Self.daysHash).rows(equalTo: [.int(6)])?.count == 11)
    // Asking again finds the index on the shelf: the same object.
    #expect(shelf.built(namesHash) === shelf.built(namesHash))
    #expect(shelf.built(IndexDefinition(.hash, on: "note")) == nil)
  }
}
