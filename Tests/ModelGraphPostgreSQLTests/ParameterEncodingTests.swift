import Foundation
import Testing

@testable import ModelGraphPostgreSQL

/// The client-side text a save sends: written by hand for speed, so checked against the
/// library's own formatting.
@Suite("Parameter encoding") struct ParameterEncodingTests {
  @Test("a UUID's text is exactly Foundation's uuidString, for random and extreme UUIDs")
  func uuidTextMatchesFoundation() {
    let extremes = [
      UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
      UUID(
        uuid: (
          255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
        )),
      UUID(
        uuid: (
          0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32,
          0x10
        )),
    ]
    for uuid in extremes + (0..<500).map({ _ in UUID() }) {
      #expect(SQLMapping.uuidText(uuid) == uuid.uuidString)
    }
    let badge = UUID(uuidString: "00000000-0000-4000-8000-00000000000A")!
    #expect(
      SQLMapping.parameter(.uuid(badge), type: .uuid) == "00000000-0000-4000-8000-00000000000A")
    #expect(
      SQLMapping.literal(.uuid(badge), type: .uuid)
        == "'00000000-0000-4000-8000-00000000000A'::uuid")
  }

  @Test("a bigint array is PostgreSQL's text format, extremes and negatives included")
  func bigintArrayText() {
    let cases: [[Int64]] = [
      [], [0], [7], [-1], [10, -10, 100], [.max, .min, 0], [1 << 40 | 5, 9_999_999_999],
      (0..<300).map { Int64($0) * 7_919 - 1_000_000 },
    ]
    for values in cases {
      let expected = "{" + values.map { String($0) }.joined(separator: ",") + "}"
      #expect(SQLMapping.bigintArray(values) == expected)
    }
    #expect(SQLMapping.bigintArray([.min, .max]) == "{-9223372036854775808,9223372036854775807}")
  }

  @Test("parameters reach libpq as NUL-terminated UTF-8 strings, NULL as a null pointer")
  func parametersAsCStrings() {
    let cases: [[String?]] = [
      [], [nil], [""], [nil, nil], ["a", nil, "", "naïve 日本 🎉", nil],
      ["x", String(repeating: "long ", count: 2_000), "{1,2,3}"],
    ]
    for parameters in cases {
      var seen: [String?] = []
      let result = PostgreSQLConnection.withParameters(parameters) { count, values in
        #expect(Int(count) == parameters.count)
        for index in 0..<Int(count) {
          seen.append(values?[index].map { String(cString: $0) })
        }
        return 1
      }
      #expect(result == 1)
      #expect(seen == parameters)
    }
  }
}
