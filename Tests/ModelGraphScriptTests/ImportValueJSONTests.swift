import Foundation
import Testing

@testable import ModelGraphScript

@Suite("Reading stored JSON with JSONSerialization")
struct ImportValueJSONTests {
  @Test("every JSON kind reads as the Decodable reading gives it")
  func kinds() throws {
    let text =
      #"{"b":true,"f":false,"i":1,"z":0,"d":1.5,"n":null,"s":"x","a":[1,"y",[]],"o":{"k":-2}}"#
    let fast = try #require(ImportValue(json: Data(text.utf8)))
    let decoded = try JSONDecoder().decode(ImportValue.self, from: Data(text.utf8))
    #expect(fast == decoded)
    #expect(
      ImportValue(json: Data("18446744073709551615".utf8)) == .double(Double(UInt64.max)))
    #expect(ImportValue(json: Data("\"top\"".utf8)) == .string("top"))
    #expect(ImportValue(json: Data("{oops".utf8)) == nil)
  }
}
