import Foundation
import ModelGraph
import ModelGraphScript
import Testing

@testable import ModelGraphCore

/// A class a typed process declares with indexes and default values.
private class Voyage: PersistentModel, IndexedModel {
  @Attribute var name: String
  @Attribute var days = 7
  @Attribute var port = "Lisbon"
  @Attribute(.unique) var code: String
  class var indexes: [ModelIndex] { [.ordered(\Voyage.name), .hash(\Voyage.port)] }
}

/// A class whose initial values differ from object to object.
private final class Stamped: PersistentModel {
  @Attribute var label = "new"
  @Attribute var created = Date()
  @Attribute var token = UUID()
}

/// The same entity as the runner script in ``FileSchemaTests`` declares it, without indexes.
private class Cruise: PersistentModel {
  @Attribute var name: String
  @Attribute var n: Int
}

@Suite("Indexes and defaults survive in the file, from either front end")
struct FileSchemaTests {
  private static let declaration = """
    entity Cruise { name: String index; n: Int = 7 }
    entity Ship { code: String unique; port: String index = "Porto"; unique(code, port) }
    """

  private static let expectedSchema = """
    entity Cruise {
      name: String index
      n: Int = 7
    }
    entity Ship {
      code: String unique
      port: String index = "Porto"
      unique(code, port)
    }

    """

  @Test(
    "the runner's indexes and defaults come back after a snapshot and after journal recovery",
    arguments: [true, false])
  func runnerRoundTrip(snapshot: Bool) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("cruises.mgs").path
    let write = InProcess.run(
      """
      open "\(path)"
      \(Self.declaration)
      insert Cruise { name: "Lisbon" }
      save
      \(snapshot ? "snapshot" : "")
      """, path: "write")
    #expect(write.stderr == "" && write.exit == 0)
    let read = InProcess.run(
      """
      open "\(path)"
      .schema
      insert Cruise { name: "Oslo" }
      insert Ship { code: "S1" }
      fetch Cruise.name, n sort name
      fetch Ship.code, port
      .explain fetch Cruise where name == "Oslo"
      rollback
      """, path: "read")
    #expect(read.stderr == "")
    #expect(read.stdout.hasPrefix(Self.expectedSchema))
    #expect(read.stdout.contains("Lisbon  7\nOslo    7\n"), "\(read.stdout)")
    #expect(read.stdout.contains("S1    Porto\n"))
    #expect(read.stdout.contains("ordered(name) == \"Oslo\""))
  }

  @Test(
    "indexes and defaults a typed process declared show in .schema and serve the runner",
    arguments: [true, false])
  func typedToRunner(snapshot: Bool) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("voyages.mgs")
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let voyage = Voyage()
      voyage.name = "First"
      voyage.code = "V1"
      context.insert(voyage)
      try context.save()
      if snapshot { try container.snapshot() }
    }
    let result = InProcess.run(
      """
      open "\(url.path)"
      .schema Voyage
      insert Voyage { name: "Second", code: "V2" }
      fetch Voyage.name, days, port sort name
      .explain fetch Voyage where port == "Lisbon"
      .explain fetch Voyage where name == "First"
      rollback
      """, path: "typed")
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(
        """
        entity Voyage {
          name: String index
          days: Int = 7
          port: String index = "Lisbon"
          code: String unique
        }

        """), "\(result.stdout)")
    #expect(result.stdout.contains("First      7  Lisbon\nSecond     7  Lisbon\n"))
    #expect(result.stdout.contains("hash(port) == \"Lisbon\""))
    #expect(result.stdout.contains("ordered(name) == \"First\""))
  }

  @Test("a typed app opens a file whose entity differs from its class only in indexes and defaults")
  func runnerToTyped() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("cruise.mgs")
    let write = InProcess.run(
      """
      open "\(url.path)"
      entity Cruise { name: String index; n: Int = 7 }
      insert Cruise { name: "Lisbon" }
      save
      """, path: "write")
    #expect(write.stderr == "")
    do {
      let container = try ModelContainer(
        for: Cruise.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let cruises = try context.fetch(FetchDescriptor<Cruise>())
      #expect(cruises.map(\.name) == ["Lisbon"])
      #expect(cruises.map(\.n) == [7])
      let more = Cruise()
      more.name = "Oslo"
      more.n = 1
      context.insert(more)
      try context.save()
    }
    // The typed app's declarations (no index, no default) now describe the file; its data
    // stayed.
    let read = InProcess.run(
      "open \"\(url.path)\"\n.schema Cruise\ncount Cruise", path: "read")
    #expect(read.stderr == "")
    #expect(read.stdout == "entity Cruise {\n  name: String\n  n: Int\n}\n2\n")
  }

  @Test("a version 2 file written before indexes and defaults were kept still opens")
  func versionTwoFixture() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fixture = GoldenCase.goldenDirectory.appendingPathComponent("Files/format-v2.mgs")
    let bytes = try Data(contentsOf: fixture)
    #expect(bytes[8] == 2)
    let path = directory.appendingPathComponent("old.mgs").path
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = InProcess.run(
      """
      open "\(path)"
      .schema Trip
      fetch Trip.name, n, code sort name
      insert Trip { name: "Oslo", n: 1, code: "O" }
      save
      snapshot
      """, path: "old")
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == """
        entity Trip {
          name: String
          n: Int
          code: String unique
          unique(name, n)
        }
        name    n  code
        ------  -  ----
        Lisbon  7  L
        Rome    2  R
        (2 rows)

        """)
    let upgraded = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(upgraded[8] == UInt8(SnapshotFormat.version))
    let again = InProcess.run("open \"\(path)\"\ncount Trip", path: "again")
    #expect(again.stdout == "3\n" && again.stderr == "")
  }

  @Test("the runner declares a class a typed file holds with other indexes: no conflict")
  func runnerRedeclaresTypedClass() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("voyages.mgs")
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let voyage = Voyage()
      voyage.name = "First"
      voyage.code = "V1"
      context.insert(voyage)
      try context.save()
    }
    let result = InProcess.run(
      """
      open "\(url.path)"
      entity Voyage { name: String; days: Int index; port: String; code: String unique }
      .schema Voyage
      .explain count Voyage where days == 7
      entity Voyage { name: String; days: String; port: String; code: String unique }
      """, path: "redeclare")
    #expect(
      result.stdout.hasPrefix(
        """
        entity Voyage {
          name: String index
          days: Int index = 7
          port: String index = "Lisbon"
          code: String unique
        }

        """), "\(result.stdout)")
    #expect(result.stdout.contains("ordered(days) == 7"))
    // A difference in what the data means still is one.
    #expect(
      result.stderr.contains("redeclare:5:")
        && result.stderr.contains("differs from the stored one"),
      "\(result.stderr)")
  }

  @Test("a typed app reopening its own file finds its declarations there and rewrites nothing")
  func typedReopenKeepsFile() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("voyages.mgs")
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let voyage = Voyage()
      voyage.name = "First"
      voyage.code = "V1"
      context.insert(voyage)
      try context.save()
      try container.snapshot()
    }
    let before = try Data(contentsOf: url)
    #expect(before[8] == UInt8(SnapshotFormat.version))
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      #expect(try ModelContext(container).fetchCount(FetchDescriptor<Voyage>()) == 1)
    }
    #expect(try Data(contentsOf: url) == before)
  }

  @Test("a typed app opens the version 2 file it wrote before, and its declarations go into it")
  func typedVersionTwo() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("voyages.mgs")
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let voyage = Voyage()
      voyage.name = "First"
      voyage.code = "V1"
      context.insert(voyage)
      try context.save()
      try container.snapshot()
    }
    // The same file as a build of format version 2 wrote it: no indexes, no defaults.
    let current = try SnapshotReader.decodeWithLineage(
      [UInt8](try Data(contentsOf: url)), path: url.path)
    let old = SnapshotWriter.encode(current.version, lineage: current.lineage, formatVersion: 2)
    try Data(old).write(to: url)
    let before = InProcess.run("open \"\(url.path)\"\n.schema Voyage", path: "before")
    #expect(before.stdout.contains("  name: String\n  days: Int\n"), "\(before.stdout)")
    do {
      let container = try ModelContainer(
        for: Voyage.self, configurations: ModelConfiguration(url: url))
      let voyages = try ModelContext(container).fetch(FetchDescriptor<Voyage>())
      #expect(voyages.map(\.name) == ["First"] && voyages.map(\.days) == [7])
    }
    #expect(try Data(contentsOf: url)[8] == UInt8(SnapshotFormat.version))
    let after = InProcess.run("open \"\(url.path)\"\n.schema Voyage", path: "after")
    #expect(after.stdout.contains("  name: String index\n  days: Int = 7\n"), "\(after.stdout)")
  }

  @Test("initial values that differ per object (Date(), UUID()) are no default in the file")
  func volatileInitialValues() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("stamped.mgs")
    do {
      let container = try ModelContainer(
        for: Stamped.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      context.insert(Stamped())
      try context.save()
      try container.snapshot()
    }
    let before = try Data(contentsOf: url)
    do {
      let container = try ModelContainer(
        for: Stamped.self, configurations: ModelConfiguration(url: url))
      #expect(try ModelContext(container).fetchCount(FetchDescriptor<Stamped>()) == 1)
    }
    // Reopening found the same schema and rewrote nothing.
    #expect(try Data(contentsOf: url) == before)
    let schema = InProcess.run("open \"\(url.path)\"\n.schema Stamped", path: "stamped")
    #expect(
      schema.stdout
        == "entity Stamped {\n  label: String = \"new\"\n  created: Date\n  token: UUID\n}\n")
  }

  @Test("a journal whose catalog record has the version 2 layout replays; new records follow it")
  func versionTwoJournal() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Written by the build at 87cf0eb: an empty snapshot, and a journal of two saves whose
    // first record carries the catalog (flag 1, the layout of format version 2).
    let files = GoldenCase.goldenDirectory.appendingPathComponent("Files")
    let path = directory.appendingPathComponent("old.mgs").path
    try Data(contentsOf: files.appendingPathComponent("journal-v1.mgs")).write(
      to: URL(fileURLWithPath: path))
    try Data(contentsOf: files.appendingPathComponent("journal-v1.mgs-journal")).write(
      to: URL(fileURLWithPath: path + "-journal"))
    let first = InProcess.run(
      """
      open "\(path)"
      .schema Trip
      fetch Trip.name, n sort name
      entity Port { city: String index = "Porto" }
      insert Port {}
      insert Trip { name: "Oslo", n: 1, code: "O" }
      save
      """, path: "old")
    #expect(first.stderr == "")
    #expect(
      first.stdout
        == """
        entity Trip {
          name: String
          n: Int
          code: String unique
        }
        name    n
        ------  -
        Lisbon  7
        Rome    2
        (2 rows)

        """)
    let again = InProcess.run(
      "open \"\(path)\"\n.schema Port\nfetch Port.city\ncount Trip", path: "again")
    #expect(again.stderr == "")
    #expect(
      again.stdout
        == "entity Port {\n  city: String index = \"Porto\"\n}\ncity\n-----\nPorto\n(1 row)\n3\n")
  }
}
