import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraphScript

/// Conditions the engine evaluates (translated to its query IR) and conditions the runner
/// evaluates itself must select the same objects: each condition is run both ways on one
/// data set.
@Suite("Engine and runner agree on conditions")
struct PredicateAgreementTests {
  /// A condition, and whether the engine gets all of it.
  struct Case: CustomStringConvertible, Sendable {
    let condition: String
    let translated: Bool
    var description: String { condition }
  }

  static let cases: [Case] = [
    Case(condition: "budget > 500", translated: true),
    Case(condition: "budget >= 250 AND nights < 4", translated: true),
    Case(condition: "budget * 2 - 100 > 600", translated: true),
    Case(condition: "budget > nights * 100", translated: false),
    Case(condition: "notes == nil OR notes CONTAINS \"7\"", translated: true),
    Case(condition: "name BEGINSWITH \"T1\"", translated: true),
    Case(condition: "name ENDSWITH \"3\"", translated: true),
    Case(condition: "name IN {\"T1\", \"T22\", \"T40\"}", translated: true),
    Case(condition: "startDate BETWEEN {2026-02-01, 2026-04-30}", translated: true),
    Case(condition: "ANY stops.nights > 2", translated: true),
    Case(condition: "ALL stops.nights > 1", translated: true),
    Case(condition: "NONE stops.city == \"Nice\"", translated: true),
    Case(condition: "stops.@count >= 2", translated: true),
    Case(condition: "SUBQUERY(stops, $s, $s.nights > 1).@count > 0", translated: true),
    Case(condition: "SUBQUERY(stops, $s, $s.nights > 1).@count == 2", translated: false),
    Case(condition: "self IS PersonalTrip", translated: true),
    Case(condition: "self IS ONLY Trip", translated: true),
    Case(condition: "(self AS PersonalTrip).reason == \"family\"", translated: true),
    Case(condition: "(self AS BusinessTrip).company BEGINSWITH \"A\"", translated: true),
    Case(condition: "\"b\" IN tags", translated: true),
    Case(condition: "name BEGINSWITH[c] \"t2\"", translated: false),
    Case(condition: "name ==[c] \"t5\"", translated: false),
    Case(condition: "name LIKE \"T?\"", translated: false),
    Case(condition: "name MATCHES \"T[0-9]*5\"", translated: false),
    Case(condition: "notes CONTAINS[cd] \"NOTÉ\"", translated: false),
    Case(condition: "budget > 300 AND name LIKE \"*1*\"", translated: false),
  ]

  static func makeEngine() -> ScriptEngine {
    var source = """
      entity Trip {
        name: String
        startDate: Date
        budget: Double
        nights: Int
        notes: String?
        tags: [String] = []
        stops: [Stop] inverse trip delete cascade
      }
      entity BusinessTrip : Trip { company: String }
      entity PersonalTrip : Trip { reason: String }
      entity Stop { city: String; nights: Int; trip: Trip? }

      """
    let cities = ["Nice", "Lyon", "Porto", "Genoa"]
    for index in 0..<60 {
      let month = index % 6 + 1
      let kind = ["Trip", "BusinessTrip", "PersonalTrip"][index % 3]
      var fields =
        "name: \"T\(index)\", startDate: 2026-0\(month)-1\(index % 10), budget: \((index * 37) % 900),"
        + " nights: \(index % 5)"
      if index % 4 != 0 { fields += ", notes: \"note \(index)\"" }
      if index % 5 == 0 { fields += ", tags: [\"a\", \"b\"]" }
      if kind == "BusinessTrip" {
        fields += ", company: \"\(["Acme", "Globex", "Initech"][index / 3 % 3])\""
      }
      if kind == "PersonalTrip" {
        fields += ", reason: \"\(["family", "vacation"][index / 3 % 2])\""
      }
      source += "let $t\(index) = insert \(kind) { \(fields) }\n"
      for stop in 0..<(index % 3) {
        source +=
          "insert Stop { city: \"\(cities[(index + stop) % 4])\", nights: \(stop + index % 4), trip: $t\(index) }\n"
      }
    }
    source += "save\n"
    let engine = ScriptEngine(output: { _ in })
    let runner = ScriptRunner(engine: engine, errorOutput: { Issue.record("\($0)") })
    runner.run(source, path: "setup")
    return engine
  }

  @Test("the same objects both ways", arguments: cases)
  func agreement(_ testCase: Case) throws {
    let engine = Self.makeEngine()
    var parser = Parser(source: "fetch Trip where \(testCase.condition)")
    guard case .fetch(let query)? = try parser.nextStatement()?.kind else {
      Issue.record("not a fetch")
      return
    }
    let prepared = try engine.prepare(query)
    #expect(prepared.residual.isEmpty == testCase.translated)
    let planned = Set(try prepared.plan.keys(residual: engine.residualTest(prepared)))

    let entity = try #require(engine.catalog.entity(named: "Trip"))
    var binder = Binder(catalog: engine.catalog, root: entity.index, scriptVariables: [:])
    let bound = try binder.condition(try #require(query.condition))
    let everything = try engine.keys(
      entity: entity.index, isExact: false, condition: nil, sort: [], offset: 0, limit: nil)
    #expect(everything.count == 60)
    let evaluated = Set(try everything.filter { try engine.evaluator.test(bound, on: $0) })
    #expect(planned == evaluated)
  }

  @Test("the data set makes the conditions discriminate")
  func conditionsSelectSomeButNotAll() throws {
    let engine = Self.makeEngine()
    for testCase in Self.cases {
      var parser = Parser(source: "count Trip where \(testCase.condition)")
      var output = ""
      engine.output = { output += $0 }
      try engine.execute(try #require(try parser.nextStatement()))
      let count = Int(output.trimmingCharacters(in: .newlines)) ?? -1
      #expect(count > 0 && count < 60, "\(testCase.condition) selects \(count) of 60")
    }
  }
}
