import Foundation
import ModelGraph
import Testing

/// A model whose fresh objects hold references and differ from each other: each fetched object
/// has its own transient values, as `init()` gives them.
final class TokenNote: PersistentModel {
  @Attribute var title: String
  @Attribute var visits = 3
  @Transient var token = UUID()
  @Transient var label = "fresh label"

  convenience init(title: String) {
    self.init()
    self.title = title
  }
}

/// A model whose attributes start with values `init()` computes (each object its own `stamp`).
final class StampedNote: PersistentModel {
  @Attribute var stamp = Date()
  @Attribute var count = 5
  @Transient var scratch = 0
}

/// Handles made by fetches read and write their rows like the objects they stand for, however
/// many are made, dropped and made again.
@Suite("Fetched handles")
struct FetchedHandleTests {
  @Test("objects fetched, dropped and fetched again read and write their rows")
  func fetchedDroppedFetchedAgain() throws {
    let context = try freshContextWithSavedTrips(90) { ["companion \($0)"] }
    var identifiers: [PersistentIdentifier] = []
    do {
      let trips = try context.fetch(FetchDescriptor<Trip>())
      identifiers = trips.map(\.persistentModelID)
      #expect(Set(trips.map(\.name)).count == 90)
    }
    // Every handle is gone: a second fetch makes new ones.
    let trips = try context.fetch(FetchDescriptor<Trip>())
    #expect(trips.map(\.persistentModelID) == identifiers)
    for trip in trips {
      let index = Int(trip.name.dropFirst("trip ".count))!
      #expect(trip.modelContext === context)
      #expect(!trip.hasChanges && !trip.isDeleted)
      #expect(trip.scratch == 0)
      switch index % 3 {
      case 0: #expect(type(of: trip) == Trip.self)
      case 1: #expect((trip as? BusinessTrip)?.company == "company \(index)")
      default: #expect((trip as? PersonalTrip)?.companions == ["companion \(index)"])
      }
      trip.name = "renamed \(index)"
      trip.scratch = index
    }
    #expect(trips.allSatisfy { $0.hasChanges })
    #expect(trips.allSatisfy { $0.scratch == Int($0.name.dropFirst("renamed ".count))! })
    try context.save()
    let names = try ModelContext(context.container).fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(Set(names) == Set((0..<90).map { "renamed \($0)" }))
  }

  @Test("an unsaved change survives its object being let go, and a new handle shows it")
  func unsavedChangeSurvivesRelease() throws {
    let context = try freshContextWithSavedTrips(9)
    do {
      for trip in try context.fetch(FetchDescriptor<BusinessTrip>()) {
        trip.company = "changed " + trip.name
      }
    }
    let trips = try context.fetch(FetchDescriptor<BusinessTrip>())
    #expect(trips.count == 3)
    for trip in trips {
      #expect(trip.company == "changed " + trip.name)
      #expect(trip.hasChanges)
    }
    try context.save()
    let saved = try ModelContext(context.container).fetch(FetchDescriptor<BusinessTrip>())
    #expect(saved.allSatisfy { $0.company == "changed " + $0.name })
  }

  @Test("a handle let go and made again is a distinct object with its own transient values")
  func transientValuesPerHandle() throws {
    let context = try freshContextWithSavedTrips(6)
    let first = try context.fetch(FetchDescriptor<Trip>())
    for trip in first { trip.scratch = 7 }
    let second = try ModelContext(context.container).fetch(FetchDescriptor<Trip>())
    #expect(zip(first, second).allSatisfy { $0 !== $1 && $0.name == $1.name })
    #expect(second.allSatisfy { $0.scratch == 0 })
    #expect(first.allSatisfy { $0.scratch == 7 })
  }

  @Test("fetched objects of a model whose init() gives each object its own values get them")
  func initialValuesOfFetchedObjects() throws {
    let context = try makeInMemoryContext(TokenNote.self)
    for index in 0..<5 { context.insert(TokenNote(title: "note \(index)")) }
    try context.save()
    let fresh = ModelContext(context.container)
    let notes = try fresh.fetch(FetchDescriptor<TokenNote>())
    #expect(notes.count == 5)
    #expect(Set(notes.map(\.token)).count == 5)
    #expect(notes.allSatisfy { $0.label == "fresh label" && $0.visits == 3 })
    notes[0].label = "changed"
    notes[0].visits = 4
    #expect(notes.dropFirst().allSatisfy { $0.label == "fresh label" })
    try fresh.save()
    let again = try ModelContext(context.container).fetch(
      FetchDescriptor<TokenNote>(sortBy: [SortDescriptor(\.title)]))
    #expect(again.map(\.visits) == [4, 3, 3, 3, 3])
  }

  @Test("a fetched object deleted and saved leaves its context, and its row stays gone")
  func deletedFetchedObject() throws {
    let context = try freshContextWithSavedTrips(3)
    let fetched = try context.fetch(FetchDescriptor<Trip>())
    context.delete(fetched[1])
    try context.save()
    #expect(fetched[1].isDeleted && fetched[1].modelContext == nil)
    #expect(fetched[0].modelContext === context && fetched[2].modelContext === context)
    let names = try context.fetch(FetchDescriptor<Trip>()).map(\.name)
    #expect(names == [fetched[0].name, fetched[2].name])
  }

  @Test("fetched objects read their rows, not the initial values init() gives new objects")
  func initialValuesAreNotRowValues() throws {
    let context = try makeInMemoryContext(StampedNote.self)
    for index in 0..<4 {
      let note = StampedNote()
      note.stamp = Date(timeIntervalSince1970: Double(index))
      note.count = index
      context.insert(note)
    }
    try context.save()
    let fresh = ModelContext(context.container)
    let notes = try fresh.fetch(FetchDescriptor<StampedNote>(sortBy: [SortDescriptor(\.count)]))
    #expect(notes.map(\.count) == [0, 1, 2, 3])
    #expect(notes.map(\.stamp.timeIntervalSince1970) == [0, 1, 2, 3])
    #expect(notes.allSatisfy { $0.scratch == 0 })
    let made = StampedNote()
    #expect(made.count == 5 && made.stamp.timeIntervalSince1970 > 3)
    fresh.insert(made)
    try fresh.save()
    #expect(
      try fresh.fetchCount(FetchDescriptor<StampedNote>(predicate: #Predicate { $0.count == 5 }))
        == 1)
  }
}
