import Foundation

/// The schema's encoding of a default value: a tag byte, then the value as a column block
/// encodes a value of that type (arrays: a count, then each element the same way).
extension ModelValue {
  func encode(into writer: inout ByteWriter) {
    switch self {
    case .null: writer.append(UInt8(0))
    case .bool(let value):
      writer.append(UInt8(1))
      value.encode(into: &writer)
    case .int(let value):
      writer.append(UInt8(2))
      value.encode(into: &writer)
    case .uint(let value):
      writer.append(UInt8(3))
      value.encode(into: &writer)
    case .double(let value):
      writer.append(UInt8(4))
      value.encode(into: &writer)
    case .string(let value):
      writer.append(UInt8(5))
      value.encode(into: &writer)
    case .date(let value):
      writer.append(UInt8(6))
      value.encode(into: &writer)
    case .uuid(let value):
      writer.append(UInt8(7))
      value.encode(into: &writer)
    case .url(let value):
      writer.append(UInt8(8))
      value.encode(into: &writer)
    case .data(let value):
      writer.append(UInt8(9))
      value.encode(into: &writer)
    case .decimal(let value):
      writer.append(UInt8(10))
      value.encode(into: &writer)
    case .array(let values):
      writer.append(UInt8(11))
      writer.append(UInt64(values.count))
      for value in values { value.encode(into: &writer) }
    }
  }

  static func decode(from reader: inout ByteReader, depth: Int = 0) throws -> ModelValue {
    guard depth < SnapshotFormat.maximumTypeDepth else {
      throw reader.error("a default value nests deeper than \(SnapshotFormat.maximumTypeDepth)")
    }
    switch try reader.read(UInt8.self) {
    case 0: return .null
    case 1: return .bool(try Bool.decode(from: &reader))
    case 2: return .int(try Int64.decode(from: &reader))
    case 3: return .uint(try UInt64.decode(from: &reader))
    case 4: return .double(try Double.decode(from: &reader))
    case 5: return .string(try String.decode(from: &reader))
    case 6: return .date(try Date.decode(from: &reader))
    case 7: return .uuid(try UUID.decode(from: &reader))
    case 8: return .url(try URL.decode(from: &reader))
    case 9: return .data(try Data.decode(from: &reader))
    case 10: return .decimal(try Decimal.decode(from: &reader))
    case 11:
      let count = try reader.readCount(minimumSize: 1)
      var values: [ModelValue] = []
      for _ in 0..<count { values.append(try decode(from: &reader, depth: depth + 1)) }
      return .array(values)
    case let tag: throw reader.error("unknown default value tag \(tag)")
    }
  }
}
