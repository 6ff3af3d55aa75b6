import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// SQL quoting doubles every quote character, whatever follows it: a quote followed by a
/// combining mark is one `Character` to Swift, and one that a search by equal characters
/// passes over, but PostgreSQL reads its quote alone.
@Suite("SQL quoting") struct SQLQuotingTests {
  /// Texts whose quotes a search by `Character` misses or that mix quote kinds.
  static let awkward = [
    "O'\u{301}Brien", "'\u{301}", "\"\u{308}", "a''b", "it's \"x\"", "'", "", "naïve 日本",
    "\u{301}'\u{301}'",
  ]

  @Test("a string literal doubles each apostrophe, also one followed by a combining mark")
  func literalDoublesEveryApostrophe() {
    #expect(
      SQLMapping.literal("O'\u{301}Brien").unicodeScalars.elementsEqual(
        "'O''\u{301}Brien'".unicodeScalars))
    #expect(SQLMapping.literal("") == "''")
    #expect(SQLMapping.literal("plain") == "'plain'")
    for text in Self.awkward {
      let literal = SQLMapping.literal(text)
      #expect(Self.unquoted(literal, mark: "'") == Array(text.unicodeScalars))
    }
  }

  @Test("an identifier doubles each double quote, also one followed by a combining mark")
  func identifierDoublesEveryQuote() {
    #expect(
      SQLMapping.quoted("a\"\u{308}b").unicodeScalars.elementsEqual(
        "\"a\"\"\u{308}b\"".unicodeScalars))
    for text in Self.awkward {
      #expect(Self.unquoted(SQLMapping.quoted(text), mark: "\"") == Array(text.unicodeScalars))
    }
  }

  /// The scalars `quoted` stands for, read as PostgreSQL reads a quoted token: `nil` when it
  /// is not one whole token (a lone mark inside ends it early).
  static func unquoted(_ quoted: String, mark: Unicode.Scalar) -> [Unicode.Scalar]? {
    let scalars = Array(quoted.unicodeScalars)
    guard scalars.count >= 2, scalars.first == mark, scalars.last == mark else { return nil }
    var result: [Unicode.Scalar] = []
    var index = 1
    while index < scalars.count - 1 {
      if scalars[index] == mark {
        guard scalars[index + 1] == mark, index + 1 < scalars.count - 1 else { return nil }
        index += 1
      }
      result.append(scalars[index])
      index += 1
    }
    return result
  }
}

extension PostgreSQLStoreSuites.SavingAndLoading {
  @Test("strings with quotes before combining marks are saved, found by a predicate and loaded")
  func awkwardQuotes() throws {
    let url = try TestServer.freshURL()
    do {
      let context = ModelContext(try TestServer.container(teamTypes, at: url))
      for (index, text) in SQLQuotingTests.awkward.enumerated() {
        let member = Member(name: text, score: index)
        member.nicknames = [text]
        context.insert(member)
      }
      try context.save()
    }
    for fetched in [false, true] {
      let configured =
        fetched ? PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url) : url
      let context = ModelContext(try TestServer.container(teamTypes, at: configured))
      let members = try context.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score)]))
      #expect(
        members.map { Array($0.name.unicodeScalars) }
          == SQLQuotingTests.awkward.map { Array($0.unicodeScalars) })
      #expect(members.map(\.nicknames) == SQLQuotingTests.awkward.map { [$0] })
      for (index, text) in SQLQuotingTests.awkward.enumerated() {
        // In fetched residency the constant goes into the SQL as a literal.
        let found = try context.fetch(
          FetchDescriptor<Member>(predicate: #Predicate { $0.name == text }))
        #expect(found.map(\.score) == [index], "\(Array(text.unicodeScalars))")
      }
    }
  }
}
