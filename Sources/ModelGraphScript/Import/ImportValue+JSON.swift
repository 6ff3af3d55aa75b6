import Foundation

extension ImportValue {
  /// The JSON value `data` holds, read with `JSONSerialization` (several times faster than
  /// decoding an `ImportValue`, whose decoder tries each kind in turn); `nil` when it is not
  /// JSON.
  init?(json data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    else { return nil }
    self.init(serialized: object)
  }

  /// A value `JSONSerialization` produced.
  private init(serialized object: Any) {
    switch object {
    case let text as String: self = .string(text)
    case let number as NSNumber:
      // JSON's true and false come as Boolean numbers ("c"); fractions and exponents as
      // doubles; the rest as integers.
      switch String(cString: number.objCType) {
      case "c", "B": self = .bool(number.boolValue)
      case "d", "f": self = .double(number.doubleValue)
      case "Q" where number.uint64Value > UInt64(Int64.max): self = .double(number.doubleValue)
      default: self = .int(number.int64Value)
      }
    case let values as [Any]: self = .array(values.map { ImportValue(serialized: $0) })
    case let fields as [String: Any]:
      self = .object(fields.mapValues { ImportValue(serialized: $0) })
    default: self = .null
    }
  }
}
