import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Query IR: description and specialization")
struct QueryExpressionTests {
  @Test("descriptions read like Swift")
  func descriptions() {
    let expression = QueryExpression.and([
      .comparison(.attribute("days"), .greaterOrEqual, .constant(.int(3))),
      .coalesce(
        .flatMap(
          .cast(.root, "BusinessTrip"), variable: 1,
          .comparison(.attribute(.variable(1), "company"), .equal, .constant(.string("Acme")))),
        .alwaysFalse),
      .not(.typeTest(.root, "PersonalTrip", isExact: false)),
      .string(.attribute("name"), .hasPrefix, .constant(.string("Os"))),
      .contains(.constant(.array([.int(1), .int(2)])), .attribute("days")),
      .any(
        .relationship(.root, "stays"), variable: 2,
        .comparison(.attribute(.variable(2), "rate"), .less, .constant(.double(5)))),
    ])
    #expect(
      expression.description
        == "($0.days >= 3) && (($0 as? BusinessTrip).flatMap { $1 in $1.company == \"Acme\" } ?? false)"
        + " && !($0 is PersonalTrip) && $0.name.starts(with: \"Os\") && [1, 2].contains($0.days)"
        + " && $0.stays.contains { $2 in $2.rate < 5.0 }")
    #expect(QueryExpression.and([]).description == "true")
    #expect(QueryExpression.or([]).description == "false")
    #expect(QuerySortKey(.attribute("name"), ascending: false).description == "$0.name descending")
  }

  @Test("type tests and casts of the tested object specialize per class")
  func specialization() throws {
    let catalog = try Fixture.makeStore().catalog
    let business = catalog.entities[Fixture.business]
    let personal = catalog.entities[Fixture.personal]
    let condition = QueryExpression.coalesce(
      .flatMap(
        .cast(.root, "BusinessTrip"), variable: 1,
        .comparison(.attribute(.variable(1), "company"), .equal, .constant(.string("Acme")))),
      .alwaysFalse)
    let onBusiness = QuerySpecializer(catalog: catalog, entity: business).specialize(condition)
    #expect(onBusiness == .comparison(.attribute("company"), .equal, .constant(.string("Acme"))))
    let onPersonal = QuerySpecializer(catalog: catalog, entity: personal).specialize(condition)
    #expect(onPersonal == .alwaysFalse)
    let test = QueryExpression.or([.typeTest(.root, "Trip", isExact: true), .alwaysFalse])
    #expect(QuerySpecializer(catalog: catalog, entity: business).specialize(test) == .alwaysFalse)
    #expect(
      QuerySpecializer(catalog: catalog, entity: catalog.entities[Fixture.trip]).specialize(test)
        == .alwaysTrue)
  }
}
