import Foundation
import ModelGraph
import ModelGraphCore
import ModelGraphScript
import Testing

/// A class with `Float` attributes, which the engine stores as `Double`s.
private final class Probe: PersistentModel {
  @Attribute var name: String
  @Attribute var reading: Float
  @Attribute var peak: Float?
  @Attribute var samples: [Float]
}

/// A value in a `Float` attribute is a `Float` value whoever writes it: the runner rounds a
/// number to the nearest `Float` as it assigns it (and refuses one beyond `Float`'s range), a
/// save refuses any other, and a typed container refuses to open a file holding one. So the
/// value a typed process reads is the one saved, and a query compares what Swift compares:
/// before, `0.1` from the runner read as `Float(0.1)` while `#Predicate { $0.reading == 0.1 }`
/// found nothing.
@Suite("Float attributes across front ends")
struct FloatWidthFileTests {
  /// The probes of the file at `url`, as a typed container reads them.
  private func typedValues(_ url: URL) throws -> [String] {
    let container = try ModelContainer(
      for: Probe.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    try context.validateStoredValues()
    return try context.fetch(FetchDescriptor<Probe>(sortBy: [SortDescriptor(\.name)])).map {
      "\($0.name) \($0.reading) \($0.peak.map { "\($0)" } ?? "nil") \($0.samples)"
    }
  }

  @Test("the runner rounds a number it stores in a Float attribute; Swift's query finds it")
  func runnerRoundsAndPredicateAgrees() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    let written = InProcess.run(
      """
      open "\(url.path)"
      entity Probe { name: String; reading: Float; peak: Float?; samples: [Float] = [0.1] }
      .schema Probe
      insert Probe { name: "a", reading: 0.1, peak: nil, samples: [0.1, 2, 1e-50] }
      insert Probe { name: "b", reading: 1, peak: 1 }
      save
      update Probe set peak = reading * 3 where name == "a"
      save
      """, path: "round")
    #expect(written.stderr == "")
    #expect(
      written.stdout.hasPrefix(
        "entity Probe {\n  name: String\n  reading: Float\n  peak: Float?\n  samples: [Float]"),
      "\(written.stdout)")

    let container = try ModelContainer(
      for: Probe.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let tenth: Float = 0.1
    let found = try context.fetch(
      FetchDescriptor<Probe>(predicate: #Predicate { $0.reading == tenth }))
    #expect(found.map(\.name) == ["a"])
    #expect(found.first?.reading == tenth)
    #expect(found.first?.peak == Float(Double(tenth) * 3))
    #expect(found.first?.samples == [tenth, 2, 0])
    // "b" took the default, [0.1], rounded too.
    let holding = try context.fetch(
      FetchDescriptor<Probe>(
        predicate: #Predicate { $0.samples.contains(tenth) }, sortBy: [SortDescriptor(\.name)]))
    #expect(holding.map(\.name) == ["a", "b"])
    #expect(holding.last?.samples == [tenth])
  }

  @Test("the runner compares a number with a Float attribute as the nearest Float, as Swift does")
  func runnerComparesAsFloat() {
    let result = InProcess.run(
      """
      entity Probe { name: String; reading: Float; samples: [Float]; wide: Double }
      insert Probe { name: "a", reading: 0.1, samples: [0.1], wide: 0.1 }
      .mode csv
      fetch Probe.name where reading == 0.1
      fetch Probe.name where 0.1 == reading and reading in {0.2, 0.1}
      fetch Probe.name where reading between {0.1, 0.1} and samples contains 0.1
      fetch Probe.name where any samples == 0.1 and 0.1 in samples
      fetch Probe.name where reading > 0.1 or reading < 0.1 or reading == 1e300
      fetch Probe.name where wide == 0.1 and reading > wide
      """, path: "compare")
    #expect(result.stderr == "")
    #expect(
      result.figures == [
        "name", "a", "name", "a", "name", "a", "name", "a", "name", "name", "a",
      ], "\(result.stdout)")
  }

  @Test("the runner refuses a number beyond Float's range instead of storing infinity")
  func runnerRefusesOverflow() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    let result = InProcess.run(
      """
      open "\(url.path)"
      entity Probe { name: String; reading: Float; peak: Float?; samples: [Float] }
      insert Probe { name: "a", reading: 1e300, samples: [] }
      insert Probe { name: "a", reading: 1, samples: [1, -1e39] }
      insert Probe { name: "a", reading: 3e38, samples: [] }
      update Probe set reading = reading * 10
      insert Probe { name: "b", reading: 2, peak: 1e999, samples: [-1e999] }
      save
      """, path: "overflow", keepGoing: true)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains("error:") }
    #expect(errors.count == 3, "\(result.stderr)")
    #expect(
      errors.first?.hasPrefix("overflow:3:") == true
        && errors.first?.hasSuffix(
          "error: 1e+300 does not fit reading (Float): a Float's magnitude is at most "
            + "3.4028235e+38") == true,
      "\(result.stderr)")
    #expect(
      result.stderr.contains("-1e+39 does not fit samples (Float)"), "\(result.stderr)")
    // A computed value too: 3e38 as a Float, times 10.
    #expect(
      result.stderr.contains("3.000000005497756e+39 does not fit reading (Float)"),
      "\(result.stderr)")
    #expect(try typedValues(url) == ["a 3e+38 nil []", "b 2.0 inf [-inf]"])
  }

  @Test("an import rounds a number for a Float attribute, and refuses one beyond its range")
  func importRounds() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    let good = directory.appendingPathComponent("good.csv")
    let bad = directory.appendingPathComponent("bad.csv")
    try Data("name,reading,peak\na,0.1,\n".utf8).write(to: good)
    try Data("name,reading,peak\nb,1,1e300\n".utf8).write(to: bad)
    let result = InProcess.run(
      """
      open "\(url.path)"
      entity Probe { name: String; reading: Float; peak: Float?; samples: [Float] = [] }
      .import "\(good.path)" Probe
      .import "\(bad.path)" Probe
      save
      """, path: "import", keepGoing: true)
    #expect(
      result.stderr.contains("1e+300 does not fit peak (Float)"), "\(result.stderr)")
    #expect(try typedValues(url) == ["a 0.1 nil []"])
  }

  @Test("a typed container refuses a file holding a Double that is no Float value")
  func typedOpenRefusesNonFloat() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    // A 64-bit column, as a file of an earlier build or another front end holds it.
    let written = InProcess.run(
      """
      open "\(url.path)"
      entity Probe { name: String; reading: Double; peak: Double?; samples: [Double] }
      insert Probe { name: "g", reading: 0.1, peak: 2, samples: [] }
      save
      """, path: "wide")
    #expect(written.stderr == "")
    let before = try Data(contentsOf: url)
    let message = try #require(try refusal(url))
    #expect(message.contains("Probe.reading is Float now"), "\(message)")
    #expect(message.contains("Probe/0.0"), "\(message)")
    #expect(
      message.contains("0.1 is no Float value (the nearest is 0.10000000149011612)"),
      "\(message)")
    #expect(try Data(contentsOf: url) == before)
  }

  @Test("a typed container adopts Float for a Double column whose values are Float values")
  func typedOpenAdoptsFloat() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    let written = InProcess.run(
      """
      open "\(url.path)"
      entity Probe { name: String; reading: Double; peak: Double?; samples: [Double] }
      insert Probe { name: "g", reading: 0.5, peak: nil, samples: [0.25] }
      save
      """, path: "wide")
    #expect(written.stderr == "")
    #expect(try typedValues(url) == ["g 0.5 nil [0.25]"])
    // The runner now keeps the width the typed process declared, from the journal and from
    // the snapshot.
    for step in ["journal", "snapshot"] {
      let result = InProcess.run(
        """
        open "\(url.path)"
        .schema Probe
        update Probe set reading = 0.1
        save
        \(step == "journal" ? "snapshot" : "")
        """, path: step)
      #expect(result.stderr == "", "\(step)")
      #expect(
        result.stdout.hasPrefix(
          "entity Probe {\n  name: String\n  reading: Float\n  peak: Float?\n"
            + "  samples: [Float]\n}\n"), "\(step): \(result.stdout)")
    }
    #expect(try typedValues(url) == ["g 0.1 nil [0.25]"])
  }

  @Test("a typed container refuses a journal record holding a Double that is no Float value")
  func typedOpenRefusesJournalValue() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    do {
      let container = try ModelContainer(
        for: Probe.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      let probe = Probe()
      probe.name = "g"
      probe.reading = 1
      probe.samples = []
      context.insert(probe)
      try context.save()
      try container.snapshot()
    }
    // Another process writes through the core, whose sessions publish without validating.
    try writeThroughCore(.double(0.1), entity: "Probe", attribute: "reading", in: url)
    let error = try #require(try refusal(url))
    #expect(
      error.contains(
        "Probe.reading (Probe/0.0): 0.1 is no Float value (the nearest is 0.10000000149011612)"),
      "\(error)")
  }

  @Test("a typed save stores every Float value, infinities and NaN included")
  func typedSaveStoresEveryFloat() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("probes.mgs")
    do {
      let container = try ModelContainer(
        for: Probe.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      for (name, reading, peak) in [
        ("a", Float(0.1), Float?.none), ("b", .greatestFiniteMagnitude, -.infinity),
        ("c", .leastNonzeroMagnitude, .nan),
      ] {
        let probe = Probe()
        probe.name = name
        probe.reading = reading
        probe.peak = peak
        probe.samples = [.infinity, -.greatestFiniteMagnitude]
        context.insert(probe)
      }
      try context.save()
    }
    #expect(
      try typedValues(url) == [
        "a 0.1 nil [inf, -3.4028235e+38]", "b 3.4028235e+38 -inf [inf, -3.4028235e+38]",
        "c 1e-45 nan [inf, -3.4028235e+38]",
      ])
  }

  /// What opening the file at `url` with a typed container throws, or `nil` when it opens.
  private func refusal(_ url: URL) throws -> String? {
    do {
      _ = try typedValues(url)
      return nil
    } catch let error as ModelError {
      #expect(error.code == .storedValueMismatch)
      return "\(error)"
    } catch let error as MigrationError {
      #expect(error.code == .invalidData)
      return "\(error)"
    }
  }
}
