import ModelGraphCore
import Testing

@testable import ModelGraph

/// Which relationships of the tested object a condition reads one level deep, for the fetched
/// mode's unsaved-changes path.
@Suite("Query: related reads one level deep")
struct FetchedRelatedReadsTests {
  private let members = QueryExpression.relationship(.root, "members")
  private let team = QueryExpression.relationship(.root, "team")

  @Test("counts, quantifiers, memberships and a to-one's values name their relationship")
  func oneLevel() {
    let reads = { FetchedRelatedReads.relationships(of: $0) }
    #expect(reads(.comparison(.count(members), .greater, .constant(.int(2)))) == ["members"])
    #expect(
      reads(
        .any(
          members, variable: 1,
          .comparison(.attribute(.variable(1), "score"), .greater, .attribute(.root, "limit"))))
        == ["members"])
    #expect(
      reads(.all(members, variable: 1, .typeTest(.variable(1), "Captain", isExact: false)))
        == ["members"])
    #expect(reads(.contains(members, .object(nil))) == ["members"])
    #expect(
      reads(
        .comparison(
          .flatMap(team, variable: 1, .attribute(.variable(1), "name")), .equal,
          .constant(.string("x")))) == ["team"])
    #expect(
      reads(
        .and([
          .comparison(.attribute(.root, "score"), .less, .constant(.int(3))),
          .comparison(
            .flatMap(
              .cast(.root, "Captain"), variable: 1, .count(.relationship(.variable(1), "crew"))),
            .greater, .constant(.int(0))),
        ])) == ["crew"])
    #expect(reads(.comparison(.attribute(.root, "score"), .less, .constant(.int(3)))) == [])
  }

  @Test("a relationship of a related object, a named object's values and opaque parts are refused")
  func refused() {
    let reads = { FetchedRelatedReads.relationships(of: $0) }
    #expect(
      reads(
        .comparison(
          .flatMap(team, variable: 1, .count(.relationship(.variable(1), "members"))),
          .greater, .constant(.int(3)))) == nil)
    #expect(
      reads(
        .any(members, variable: 1, .comparison(.relationship(.variable(1), "team"), .equal, .root)))
        == nil)
    #expect(
      reads(.comparison(.attribute(.object(nil), "name"), .equal, .attribute(.root, "name")))
        == nil)
    #expect(reads(.and([.opaque("x"), .count(members)])) == nil)
    #expect(reads(.comparison(.variable(3), .equal, .constant(.null))) == nil)
  }
}
