import Foundation
import Testing

@testable import ModelGraphScript

/// `.import`'s own JSON reader against Foundation's: it refuses what `JSONDecoder` (which
/// `.import` used) refuses, and reads what it takes as `JSONSerialization` does, but for the
/// numbers it keeps as text.
@Suite("Import JSON reader")
struct ImportJSONReaderTests {
  static let accepted = [
    #"[]"#, #"[{}]"#, #" [ 1 , -2 , 0 , -0 , 1.5 , 2e3 , 2E-3 , 1e+2 ] "#,
    #"["a\"b\\c\/d\b\f\n\r\t"]"#,
    #"["\u00e9\u0301", "\ud83d\ude00", "é", ""]"#, #"[true, false, null, [[]], {"a": {"b": [1]}}]"#,
    #"{"k": 1}"#, #""top""#, "7", "[\"\u{7F}\"]", "[1,]", #"{"a": [1 ,] ,}"#,
  ]
  static let refused = [
    "", "[", "]", "[,]", "[1,,]", "[01]", "[1.]", "[.5]", "[1e]", "[-]", "[+1]", "[NaN]",
    "[Infinity]",
    "[1 2]", #"{"a" 1}"#, #"{a: 1}"#, #"{"a": 1,,}"#, #"["\x"]"#, #"["\u12"]"#, #"["\u+123"]"#,
    "[\"tab\there\"]", "[tru]", "[nul]", "[1] [2]", #"["\ud800"]"#, #"["\udc00"]"#,
  ]

  @Test("accepts and refuses what Foundation does")
  func agreement() throws {
    for text in Self.accepted {
      let ours = try ImportJSONReader.value(Data(text.utf8))
      let theirs = try #require(ImportValue(json: Data(text.utf8)), "\(text)")
      #expect(Self.plain(ours) == Self.plain(theirs), "\(text)")
    }
    for text in Self.refused {
      #expect(
        (try? JSONDecoder().decode(ImportValue.self, from: Data(text.utf8))) == nil, "\(text)")
      #expect(throws: ImportJSONReader.Failure.self, "\(text)") {
        try ImportJSONReader.value(Data(text.utf8))
      }
    }
  }

  @Test("numbers past Int64 keep their text; deep nesting, repeated keys and bad UTF-8 are refused")
  func edges() throws {
    #expect(try ImportJSONReader.value(Data("-9223372036854775808".utf8)) == .int(.min))
    #expect(
      try ImportJSONReader.value(Data("18446744073709551615".utf8))
        == .number("18446744073709551615"))
    #expect(try ImportJSONReader.value(Data("0.10".utf8)) == .number("0.10"))
    #expect(try ImportJSONReader.value(Data("\u{FEFF}[1]".utf8)) == .array([.int(1)]))
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: ImportJSONReader.Failure.self) { try ImportJSONReader.value(Data(deep.utf8)) }
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(throws: Never.self) { try ImportJSONReader.value(Data(fine.utf8)) }
    let twice = #"[{"a": 1, "b": 2, "a": 3}]"#
    #expect {
      try ImportJSONReader.value(Data(twice.utf8))
    } throws: { error in
      (error as? ImportJSONReader.Failure)?.message
        == #"the key "a" is written twice in one object"#
    }
    #expect(throws: ImportJSONReader.Failure.self) {
      try ImportJSONReader.value(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
    }
  }

  /// A value with numbers as `Double`s, to compare with what `JSONSerialization` reads.
  static func plain(_ value: ImportValue) -> ImportValue {
    switch value {
    case .number(let text): .double(Double(text)!)
    case .int(let number): .double(Double(number))
    case .double(let number): .double(number)
    case .array(let values): .array(values.map(plain))
    case .object(let fields): .object(fields.mapValues(plain))
    default: value
    }
  }
}
