import Foundation
import ModelGraph
import Testing

@testable import ModelGraphScript

/// A Codable value with a `Decimal`, an `Int` and a `UInt` field.
private struct Price: CompositeValue, Equatable {
  var amount: Decimal
  var units: Int
  var stock: UInt
}

private final class Item: PersistentModel {
  @Attribute var name: String
  @Attribute var price: Price
}

/// The runner wrote a Codable value's `Decimal` field as a `Double`
/// (`12345678901234567890.123456789` became `1.234567890123457e+19`), from literals and from
/// `.import`, and wrote any number into an `Int` or `UInt` field the Swift type declares (`1.5`,
/// `1e20`, `-1`, with a warning at most), which the Swift app then failed to decode.
@Suite("Numbers in Codable values written by the runner")
struct CodableNumberTests {
  private static let digits = "12345678901234567890.123456789"

  /// A file a typed process made with no Item stored.
  private static func emptyFile() throws -> (directory: URL, url: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-number-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("items.mgs")
    let container = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: url))
    try container.snapshot()
    return (directory, url)
  }

  /// The items the Swift app reads from `url`, by name.
  private static func read(_ url: URL) throws -> [Item] {
    let container = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: url))
    return try ModelContext(container).fetch(
      FetchDescriptor<Item>(sortBy: [SortDescriptor(\.name)]))
  }

  @Test("a Decimal field keeps every digit of a literal and of an import; the app reads them")
  func decimalDigits() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let json = directory.appendingPathComponent("items.json")
    try Data(
      #"[{"name": "b", "price": {"amount": \#(Self.digits), "units": 2, "stock": 3}}]"#.utf8
    ).write(to: json)
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Item { name: "a", price: {amount: \(Self.digits), units: 1, stock: 2} }
      insert Item { name: "c", price: {amount: 100000000000000000000000, units: 1, stock: 2} }
      .import "\(json.path)" Item
      save
      """, path: "s")
    #expect(result.stderr == "")
    #expect(result.exit == 0)
    let shown = InProcess.run("open \"\(url.path)\"\nfetch Item.price sort name", path: "f")
    #expect(shown.stdout.components(separatedBy: "\"amount\":\(Self.digits),").count == 3)
    let items = try Self.read(url)
    let exact = try #require(
      Decimal(string: Self.digits, locale: Locale(identifier: "en_US_POSIX")))
    #expect(items.map(\.name) == ["a", "b", "c"])
    #expect(
      items.map(\.price) == [
        Price(amount: exact, units: 1, stock: 2), Price(amount: exact, units: 2, stock: 3),
        Price(amount: Decimal(sign: .plus, exponent: 23, significand: 1), units: 1, stock: 2),
      ])
  }

  @Test("a dump writes a Decimal field's digits, and the dump run again keeps them")
  func dumpKeepsDigits() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let insert = InProcess.run(
      """
      open "\(url.path)"
      insert Item { name: "a", price: {amount: \(Self.digits), units: 1, stock: 2} }
      save
      .dump
      """, path: "s")
    #expect(insert.stderr == "")
    #expect(insert.stdout.contains("amount: \(Self.digits)"), "\(insert.stdout)")
    let rebuilt = directory.appendingPathComponent("again.mgs")
    let start = try #require(insert.stdout.range(of: "-- modelgraph .dump")).lowerBound
    let rebuild = InProcess.run(
      "open \"\(rebuilt.path)\"\n" + insert.stdout[start...], path: "r")
    #expect(rebuild.stderr == "")
    #expect(try Self.read(rebuilt).map(\.price) == Self.read(url).map(\.price))
  }

  @Test("a number an Int or UInt field the Swift type declares cannot hold is refused")
  func declaredIntegers() throws {
    let (directory, url) = try Self.emptyFile()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Item { name: "a", price: {amount: 1, units: 1.5, stock: 2} }
      insert Item { name: "b", price: {amount: 1, units: 100000000000000000000, stock: 2} }
      insert Item { name: "c", price: {amount: 1, units: 1, stock: -1} }
      insert Item { name: "d", price: {amount: 1, units: 2.0, stock: 18446744073709551615} }
      save
      """, path: "e", keepGoing: true)
    let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("e:") }
    #expect(
      lines == [
        "e:2:52: error: Price.units is Int in the Swift type; 1.5 does not fit it",
        "e:3:52: error: Price.units is Int in the Swift type; 100000000000000000000 does not fit it",
        "e:4:62: error: Price.stock is UInt in the Swift type; -1 does not fit it",
      ])
    let items = try Self.read(url)
    #expect(items.map(\.price) == [Price(amount: 1, units: 2, stock: .max)])
  }
}
