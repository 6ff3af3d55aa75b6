import Foundation
import ModelGraph
import ModelGraphScript
import Testing

/// A price a typed Swift process writes, with a `Decimal` NaN no script literal can hold.
private final class Price: PersistentModel, IndexedModel {
  @Attribute var n: Int
  @Attribute var amount: Decimal
  @Attribute var spare: Decimal?
  @Attribute var tag: String

  static var indexes: [ModelIndex] { [.ordered(\Price.amount)] }
}

/// A `Decimal` NaN read by the runner. Foundation's `Decimal` orders NaN before every number
/// and takes it as equal to itself (`Decimal.nan < 0`, `Decimal.nan == Decimal.nan`), and the
/// engine compares as it does; the runner's own test (a condition with `[c]`) took NaN as
/// unordered, so `amount < 0 OR …` missed what `amount < 0` found. `.mode json` wrote it as a
/// bare `NaN`, which is not JSON: it writes the string `"NaN"`, which `.import` reads back.
@Suite("Runner Decimal NaN")
struct DecimalNaNRunnerTests {
  /// A file of prices: n 1…6 with amounts 3, NaN, -1, 5, NaN, 2; `spare` the same but `nil`
  /// for n 3 and 6.
  static func file(in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("prices.mgs")
    let container = try ModelContainer(
      for: Price.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let amounts: [Decimal] = [3, .nan, -1, 5, .nan, 2]
    for (index, amount) in amounts.enumerated() {
      let price = Price()
      price.n = index + 1
      price.amount = amount
      price.spare = index % 3 == 2 ? nil : amount
      price.tag = "p"
      context.insert(price)
    }
    try context.save()
    try container.snapshot()
    return url
  }

  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-decimal-nan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Runs `script` (with `--keep-going`) after opening a new prices file in CSV mode.
  static func runOnPrices(_ script: String) throws -> ScriptResult {
    let directory = try directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = try file(in: directory)
    return InProcess.run(
      "open \"\(url.path)\"\n.mode csv\n" + script, path: "t.mgscript", keepGoing: true)
  }

  @Test("comparisons the runner tests itself count what the engine counts")
  func comparisons() throws {
    let result = try Self.runOnPrices(
      """
      count Price where amount < 0
      count Price where amount < 0 OR tag ==[c] "X"
      count Price where amount >= 0
      count Price where amount >= 0 OR tag ==[c] "X"
      count Price where spare <= 2
      count Price where spare <= 2 OR tag ==[c] "X"
      count Price where amount == amount
      count Price where amount == amount OR tag ==[c] "X"
      count Price where amount BETWEEN {-5, 5}
      count Price where amount BETWEEN {-5, 5} OR tag ==[c] "X"
      count Price by amount
      fetch Price.n sort amount
      """)
    #expect(result.exit == 0, "\(result.stderr)")
    #expect(
      result.figures == [
        "3", "3", "3", "3", "2", "2", "6", "6", "4", "4",
        "amount,count", "NaN,2", "-1,1", "2,1", "3,1", "5,1",
        "n", "2", "5", "3", "6", "1", "4",
      ])
  }

  @Test(".mode json writes a Decimal NaN as JSON that .import reads back")
  func jsonRoundTrip() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = try Self.file(in: directory)
    let exported = directory.appendingPathComponent("prices.json").path
    let csv = directory.appendingPathComponent("prices.csv").path
    let result = InProcess.run(
      """
      open "\(url.path)"
      .mode json
      .once \(exported)
      fetch Price.n, amount, spare, tag where n == 2 OR n == 3
      .mode csv
      .once \(csv)
      fetch Price.n, amount, spare, tag where n == 5
      .import \(exported) Price
      .import \(csv) Price
      save
      count Price where amount < 0
      count Price where spare < 0
      """, path: "t.mgscript", keepGoing: true)
    #expect(result.exit == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: exported, encoding: .utf8)
    #expect(text.contains(#""amount": "NaN""#), "\(text)")
    #expect(
      (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "not JSON: \(text)")
    #expect(result.figures.suffix(2) == ["6", "4"], "\(result.stdout)")
  }

  /// Foundation computes `Decimal` arithmetic on a NaN as NaN (`Decimal.nan * 2`), as the
  /// engine's predicates do; the runner's own arithmetic threw "a Decimal value is NaN", so an
  /// `update` of every price changed none.
  @Test("the runner's arithmetic on a NaN gives NaN, as Foundation's does")
  func arithmetic() throws {
    let result = try Self.runOnPrices(
      """
      update Price set amount = amount * 2 + 1
      fetch Price.n, amount sort n
      count Price where amount * 2 < 0
      update Price set spare = spare / 0 where n == 2
      fetch Price.spare where n == 2
      update Price set spare = spare / 0 where n == 1
      fetch Price.spare where n == 1
      """)
    #expect(
      result.figures == [
        "n,amount", "1,7", "2,NaN", "3,-1", "4,11", "5,NaN", "6,5", "3",
        "spare", "NaN", "spare", "3",
      ], "\(result.stdout)")
    #expect(result.stderr.contains("division by zero"), "\(result.stderr)")
  }
}
