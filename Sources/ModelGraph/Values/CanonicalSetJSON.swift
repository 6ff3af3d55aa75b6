import Foundation

/// The JSON of a set with its elements in one order: JSONEncoder writes a set's elements in
/// iteration order, which differs between equal sets, so their elements' bytes are sorted
/// to store equal sets as equal bytes (for `.unique` and change checks). Only the top level
/// is sorted: a set nested inside an element keeps its encoder's order.
func canonicalSetJSON(_ data: Data) -> Data {
  let bytes = [UInt8](data)
  guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return data }
  var elements: [ArraySlice<UInt8>] = []
  var depth = 0
  var inString = false
  var escaped = false
  var start = 1
  for index in 1..<(bytes.count - 1) {
    let byte = bytes[index]
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      continue
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
    case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
    case UInt8(ascii: ",") where depth == 0:
      elements.append(bytes[start..<index])
      start = index + 1
    default: break
    }
  }
  if start < bytes.count - 1 { elements.append(bytes[start..<(bytes.count - 1)]) }
  elements.sort { $0.lexicographicallyPrecedes($1) }
  var result = Data([UInt8(ascii: "[")])
  for (position, element) in elements.enumerated() {
    if position > 0 { result.append(UInt8(ascii: ",")) }
    result.append(contentsOf: element)
  }
  result.append(UInt8(ascii: "]"))
  return result
}
