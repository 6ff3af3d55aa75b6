import ModelGraphCore
import Testing

@testable import ModelGraph

/// Which paths of relationships from the tested object a condition reads, for the fetched
/// mode's unsaved-changes path.
@Suite("Query: related reads along paths")
struct FetchedRelatedReadsTests {
  private let members = QueryExpression.relationship(.root, "members")
  private let team = QueryExpression.relationship(.root, "team")

  @Test("counts, quantifiers, memberships and a to-one's values name their relationship")
  func oneLevel() {
    let reads = { FetchedRelatedReads.paths(of: $0) }
    #expect(reads(.comparison(.count(members), .greater, .constant(.int(2)))) == [["members"]])
    #expect(
      reads(
        .any(
          members, variable: 1,
          .comparison(.attribute(.variable(1), "score"), .greater, .attribute(.root, "limit"))))
        == [["members"]])
    #expect(
      reads(.all(members, variable: 1, .typeTest(.variable(1), "Captain", isExact: false)))
        == [["members"]])
    #expect(reads(.contains(members, .object(nil))) == [["members"]])
    #expect(
      reads(
        .comparison(
          .flatMap(team, variable: 1, .attribute(.variable(1), "name")), .equal,
          .constant(.string("x")))) == [["team"]])
    #expect(
      reads(
        .and([
          .comparison(.attribute(.root, "score"), .less, .constant(.int(3))),
          .comparison(
            .flatMap(
              .cast(.root, "Captain"), variable: 1, .count(.relationship(.variable(1), "crew"))),
            .greater, .constant(.int(0))),
        ])) == [["crew"]])
    #expect(reads(.comparison(.attribute(.root, "score"), .less, .constant(.int(3)))) == [])
  }

  @Test("relationships of related objects name their paths, with the paths on the way")
  func deeper() {
    let reads = { FetchedRelatedReads.paths(of: $0) }
    #expect(
      reads(
        .comparison(
          .flatMap(team, variable: 1, .count(.relationship(.variable(1), "members"))),
          .greater, .constant(.int(3)))) == [["team"], ["team", "members"]])
    #expect(
      reads(
        .any(members, variable: 1, .comparison(.relationship(.variable(1), "team"), .equal, .root)))
        == [["members"], ["members", "team"]])
    let company = QueryExpression.relationship(.relationship(team, "division"), "company")
    #expect(
      reads(.comparison(.attribute(company, "name"), .equal, .constant(.string("x"))))
        == [["team"], ["team", "division"], ["team", "division", "company"]])
    #expect(
      reads(
        .any(
          members, variable: 1,
          .all(
            .relationship(.cast(.variable(1), "Captain"), "crew"), variable: 2,
            .comparison(.attribute(.variable(2), "score"), .greater, .constant(.int(1))))))
        == [["members"], ["members", "crew"]])
    #expect(
      reads(
        .comparison(
          .relationship(.coalesce(team, .root), "owner"), .equal, .object(nil)))
        == [["team"], ["owner"], ["team", "owner"]])
  }

  @Test("a named object's values and relationships, opaque parts and unbound variables are refused")
  func refused() {
    let reads = { FetchedRelatedReads.paths(of: $0) }
    #expect(
      reads(.comparison(.attribute(.object(nil), "name"), .equal, .attribute(.root, "name")))
        == nil)
    #expect(reads(.count(.relationship(.object(nil), "members"))) == nil)
    #expect(reads(.and([.opaque("x"), .count(members)])) == nil)
    #expect(reads(.comparison(.variable(3), .equal, .constant(.null))) == nil)
  }
}
