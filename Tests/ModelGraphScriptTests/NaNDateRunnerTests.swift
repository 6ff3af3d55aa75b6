import Foundation
import ModelGraph
import ModelGraphScript
import Testing

/// A visit a typed Swift process writes, with dates no script literal can hold.
private final class Visit: PersistentModel, IndexedModel {
  @Attribute var n: Int
  @Attribute var day: Date
  @Attribute var spare: Date?
  @Attribute var tag: String

  static var indexes: [ModelIndex] { [.ordered(\Visit.day)] }
}

/// A `Date` of a NaN interval in a file a typed process wrote, read by the runner: a fetch
/// sorts it after `nil` and before every date, as the engine's indexes hold it; `count … by`
/// makes one group of every NaN date, where a fetch sorts them; `min` and `max` skip it; `==`,
/// `<` and `>` never match it, `>=`, `<=` and BETWEEN always do (Swift derives `Date`'s `>=` as
/// `!(a < b)`), whether the engine or the runner tests them; output shows it
/// as `nan` (not the clamped year -4712 of Foundation's formatter) and `.dump` refuses it
/// (no literal holds it) rather than write another date.
@Suite("Runner NaN dates")
struct NaNDateRunnerTests {
  static let nan = Date(timeIntervalSinceReferenceDate: .nan)

  /// 2026-01-`number`.
  static func day(_ number: Double) -> Date {
    Date(timeIntervalSinceReferenceDate: 788_918_400 + (number - 1) * 86_400)
  }

  /// A file of visits: n 1…6 with `day` 2026-01-03, NaN, 2026-01-01, 2026-01-05, NaN, 2026-01-02
  /// and `spare` the same but `nil` for n 3 and 6.
  static func file(in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("visits.mgs")
    let container = try ModelContainer(
      for: Visit.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let days = [day(3), nan, day(1), day(5), nan, day(2)]
    for (index, day) in days.enumerated() {
      let visit = Visit()
      visit.n = index + 1
      visit.day = day
      visit.spare = index % 3 == 2 ? nil : day
      visit.tag = "v"
      context.insert(visit)
    }
    try context.save()
    try container.snapshot()
    return url
  }

  static func run(_ statements: String) throws -> ScriptResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-nandate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = try file(in: directory)
    return InProcess.run(
      "open \"\(url.path)\"\n.mode csv\n" + statements, path: "t.mgscript", keepGoing: true)
  }

  @Test("sorts, groups and aggregates put NaN dates after nil and before dates")
  func order() throws {
    let result = try Self.run(
      """
      fetch Visit.n sort day
      fetch Visit.n sort spare desc
      fetch Visit.n sort day limit 3
      count Visit by spare
      min Visit.day
      max Visit.day
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "n", "2", "5", "3", "6", "1", "4",
        "n", "4", "1", "2", "5", "3", "6",
        "n", "2", "5", "3",
        "spare,count", ",2", "nan,2", "2026-01-03T00:00:00Z,1", "2026-01-05T00:00:00Z,1",
        "2026-01-01T00:00:00Z", "2026-01-05T00:00:00Z",
      ])
  }

  @Test("comparisons the runner tests itself count what the engine's index counts")
  func comparisons() throws {
    let result = try Self.run(
      """
      count Visit where day > 2026-01-02
      count Visit where day > 2026-01-02 OR tag ==[c] "X"
      count Visit where day < 2026-01-04
      count Visit where day < 2026-01-04 OR tag ==[c] "X"
      count Visit where day >= 2026-01-01
      count Visit where day >= 2026-01-01 OR tag ==[c] "X"
      count Visit where day <= 2026-01-02
      count Visit where day <= 2026-01-02 OR tag ==[c] "X"
      count Visit where day BETWEEN {2026-01-01, 2026-01-31}
      count Visit where day BETWEEN {2026-01-01, 2026-01-31} OR tag ==[c] "X"
      count Visit where spare >= 2026-01-01
      count Visit where spare >= 2026-01-01 OR tag ==[c] "X"
      count Visit where day > 2026-01-01 AND day <= 2026-01-31
      count Visit where day > 2026-01-01 AND day <= 2026-01-31 OR tag ==[c] "X"
      count Visit where day != 2026-01-03
      count Visit where day != 2026-01-03 OR tag ==[c] "X"
      count Visit where day == day OR tag ==[c] "X"
      count Visit where day >= day OR tag ==[c] "X"
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    // A NaN date is `>=` and `<=` every date, as Swift derives `Date`'s `>=` and `<=`
    // (`!(a < b)`): inclusive comparisons and BETWEEN take the two NaN dates, strict ones not.
    #expect(
      result.figures == [
        "2", "2", "3", "3", "6", "6", "4", "4", "6", "6", "4", "4", "3", "3", "5", "5", "4", "6",
      ])
  }

  @Test("a NaN date shows as nan, and .dump refuses it")
  func output() throws {
    let result = try Self.run(
      """
      fetch Visit.day where n == 2
      .mode json
      fetch Visit.day where n == 2
      .dump
      """)
    #expect(result.figures.prefix(4) == ["day", "nan", "[", #"  {"day": "nan"}"#])
    #expect(result.stderr.contains(".dump cannot write Visit/"), "\(result.stderr)")
  }
}
