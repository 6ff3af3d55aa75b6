import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraphScript

@Suite("Lexer and parser")
struct LexerParserTests {
  @Test("tokens: words, variables, numbers, dates, strings, symbols, comments")
  func tokens() {
    let tokens = Lexer.tokens(
      of: "fetch $t 12 2.5 2026-05-01T10:00:00+02:00 'it\\'s' <> =< -- a comment\nx")
    let kinds = tokens.map(\.kind)
    #expect(kinds.count == 11)
    #expect(kinds[0] == .identifier("fetch"))
    #expect(kinds[1] == .variable("t"))
    #expect(kinds[2] == .literal(.int(12)))
    #expect(kinds[3] == .literal(.double(2.5)))
    #expect(kinds[4] == .literal(.date(Date(timeIntervalSince1970: 1_777_622_400))))
    #expect(kinds[5] == .literal(.string("it's")))
    #expect(kinds[6] == .symbol("!="))
    #expect(kinds[7] == .symbol("<="))
    #expect(kinds[8] == .newline)
    #expect(kinds[9] == .identifier("x"))
    #expect(tokens[9].location == SourceLocation(line: 2, column: 1))
    #expect(kinds[10] == .end)
  }

  @Test("unreadable text becomes an invalid token and lexing goes on at the next line")
  func invalidTokens() {
    let tokens = Lexer.tokens(of: "a \"open\nb 2026-02-30\nc")
    #expect(
      tokens.map(\.kind) == [
        .identifier("a"), .invalid("unterminated string"), .newline, .identifier("b"),
        .invalid("malformed date '2026-02-30'; use 2026-05-01 or 2026-05-01T09:30:00Z"), .newline,
        .identifier("c"), .end,
      ])
  }

  @Test("a clause may continue on the next line; statements end at a line end or ';'")
  func continuation() throws {
    var parser = Parser(
      source: "fetch Trip\n  where budget > 1\n  sort name desc\n  limit 3; count Trip")
    guard case .fetch(let query)? = try parser.nextStatement()?.kind else {
      Issue.record("expected a fetch")
      return
    }
    #expect(query.condition?.description == "budget > 1")
    #expect(query.sort.count == 1 && query.sort[0].ascending == false)
    #expect(query.limit == 3)
    guard case .aggregate(let count)? = try parser.nextStatement()?.kind else {
      Issue.record("expected a count")
      return
    }
    #expect(count.function == .count)
    #expect(try parser.nextStatement() == nil)
  }

  @Test("conditions print back in the script's syntax")
  func printing() throws {
    let source =
      "fetch T where ANY stops.city BEGINSWITH[cd] \"N\" AND NOT (self IS ONLY T) OR"
      + " (self AS U).x * 2 BETWEEN {1, 3} AND SUBQUERY(stops, $s, $s.n > 1).@count == 0"
    var parser = Parser(source: source)
    guard case .fetch(let query)? = try parser.nextStatement()?.kind else {
      Issue.record("expected a fetch")
      return
    }
    let printed = try #require(query.condition?.description)
    #expect(
      printed
        == "((ANY stops.city BEGINSWITH[cd] \"N\") AND NOT (self IS ONLY T)) OR ((((self AS U).x"
        + " * 2) BETWEEN {1, 3}) AND (SUBQUERY(stops, $s, $s.n > 1).@count == 0))")
    var again = Parser(source: "fetch T where \(printed)")
    guard case .fetch(let reparsed)? = try again.nextStatement()?.kind else {
      Issue.record("the printed condition does not parse")
      return
    }
    #expect(reparsed.condition?.description == printed)
  }

  @Test("the REPL reads more lines while a brace, bracket or parenthesis is open")
  func completeness() {
    #expect(REPL.isComplete("count Trip"))
    #expect(!REPL.isComplete("entity Trip {"))
    #expect(!REPL.isComplete("entity Trip {\n name: String"))
    #expect(REPL.isComplete("entity Trip {\n name: String\n}"))
    #expect(!REPL.isComplete("fetch Trip where (a == 1"))
    #expect(REPL.isComplete("fetch Trip where name == \"{\""))
  }

  @Test("diagnostics: path, line, column, the line, and a caret under the column")
  func diagnostics() {
    let renderer = DiagnosticRenderer(path: "s.mgscript", source: "a\n\tfetch X\n")
    #expect(
      renderer.render(ScriptError("unknown class 'X'", at: SourceLocation(line: 2, column: 8)))
        == "s.mgscript:2:8: error: unknown class 'X'\n fetch X\n       ^\n")
    #expect(
      renderer.render(ScriptError("late", at: SourceLocation(line: 9, column: 1)))
        == "s.mgscript:9:1: error: late\n")
  }
}
