import Foundation
import Testing

@testable import ModelGraphScript

@Suite("Completion and history files")
struct CompleterTests {
  private let completer = Completer(classes: [
    "Accommodation": .init(attributes: ["name", "price"], relationships: [("trip", "Trip")]),
    "Trip": .init(attributes: ["name", "budget"], relationships: [("stays", "Accommodation")]),
  ])

  @Test("contexts: the first word, a class after fetch, members in where, paths, dot-commands")
  func contexts() {
    #expect(completer.complete("co").candidates == ["codable", "commit", "count"])
    #expect(completer.complete("fetch ").candidates == ["Accommodation", "Trip"])
    #expect(completer.complete("count only T").candidates == ["Trip"])
    #expect(completer.complete("fetch Trip where b").candidates == ["budget", "by"])
    #expect(completer.complete("fetch Accommodation.").candidates == ["name", "price", "trip"])
    #expect(
      completer.complete("fetch Accommodation.name, trip.").candidates == [
        "budget", "name", "stays",
      ])
    #expect(completer.complete("fetch Trip where stays.trip.b").candidates == ["budget"])
    #expect(completer.complete(".sc").candidates == ["schema"])
    #expect(completer.complete(".op").candidates == ["open"])
    #expect(completer.complete(".schema A").candidates == ["Accommodation"])
    #expect(completer.complete("save; fe").candidates == ["fetch"])
    #expect(completer.complete("fetch Trip where nothing.").candidates == [])
  }

  @Test("file names after .read, .open, .import, .output and .once, directories with a slash")
  func fileNames() {
    var files = completer
    files.listDirectory = { directory in
      switch directory {
      case ".": ["trips.csv", "trips.json", "data/", ".hidden"]
      case "data/": ["people.csv"]
      default: []
      }
    }
    #expect(files.complete(".import tr").candidates == ["trips.csv", "trips.json"])
    #expect(files.complete(".import tr").start == 8)
    #expect(files.complete(".read ").candidates == ["data/", "trips.csv", "trips.json"])
    #expect(files.complete(".once data/p").candidates == ["data/people.csv"])
    #expect(files.complete(".output .h").candidates == [".hidden"])
    #expect(files.complete(".open data/").candidates == ["data/people.csv"])
    // The class after the file of .import is a class name again.
    #expect(files.complete(".import trips.csv Tr").candidates == ["Trip"])
  }

  @Test("a store's journal and lock file are not offered (found walking through the REPL)")
  func storeCompanions() {
    var files = completer
    files.listDirectory = { _ in
      ["trips.mgs", "trips.mgs-journal", "trips.mgs.lock", "notes-journal", "old.lock"]
    }
    #expect(files.complete(".open tr").candidates == ["trips.mgs"])
    // Without the store beside them they are ordinary files.
    #expect(files.complete(".read no").candidates == ["notes-journal"])
    #expect(files.complete(".read ol").candidates == ["old.lock"])
  }

  @Test("the completion replaces the word before the cursor")
  func start() {
    #expect(completer.complete("fetch Trip where na").start == 17)
  }

  @Test("the history file: honours MODELGRAPH_HISTORY and HOME, kept across two sessions")
  func historyFile() throws {
    #expect(
      History.defaultFile(environment: ["HOME": "/home/ann"])?.path
        == "/home/ann/.modelgraph_history")
    #expect(History.defaultFile(environment: ["HOME": "/h", "MODELGRAPH_HISTORY": ""]) == nil)
    #expect(
      History.defaultFile(environment: ["HOME": "/h", "MODELGRAPH_HISTORY": "/tmp/x"])?.path
        == "/tmp/x")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("history")
    var first = History(file: file)
    first.remember("fetch Trip")
    first.remember("fetch Trip")
    first.remember("   ")
    first.remember("count Trip")
    let second = History(file: file, limit: 1000)
    #expect(second.entries == ["fetch Trip", "count Trip"])
    let short = History(file: file, limit: 1)
    #expect(short.entries == ["count Trip"])
  }

  @Test("history keeps a multi-line statement as one line, unless a comment would swallow it")
  func multiLineEntries() {
    #expect(REPL.historyEntries(["count Trip"]) == ["count Trip"])
    #expect(
      REPL.historyEntries(["insert Trip {", "  name: \"Oslo\",", "  days: 3", "}"])
        == ["insert Trip { name: \"Oslo\", days: 3 }"])
    #expect(
      REPL.historyEntries(["insert Trip { -- the first", "name: \"Oslo\" }"])
        == ["insert Trip { -- the first", "name: \"Oslo\" }"])
  }
}
