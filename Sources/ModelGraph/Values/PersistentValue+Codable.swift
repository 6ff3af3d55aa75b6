public import ModelGraphCore

/// A `Codable` struct stored as one composite attribute value, encoded as JSON.
///
/// ```swift
/// struct Address: Codable, CompositeValue { var street: String; var city: String }
/// class Customer: PersistentModel { @Attribute var address: Address }
/// ```
public protocol CompositeValue: PersistentValue, Codable where Stored == Data {}

extension CompositeValue {
  /// ``ValueType/composite(_:)`` named after the type.
  public static var valueType: ValueType { .composite(String(describing: Self.self)) }

  /// Decodes the stored bytes; bytes that do not decode (only from a corrupt or migrated store)
  /// stop with a message naming the type.
  public static func fromStored(_ stored: Data) -> Self {
    do {
      return try decodeStoredChecked(stored, Self.self)
    } catch {
      fatalError("stored \(Self.self) value does not decode: \(error)")
    }
  }

  /// The value encoded as JSON; NaN and infinities, which JSON lacks, as the strings `"NaN"`,
  /// `"Infinity"` and `"-Infinity"`.
  public var stored: Data {
    do {
      let encoder = JSONEncoder()
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
      return try encoder.encode(self)
    } catch {
      fatalError("\(Self.self) value does not encode: \(error)")
    }
  }

  /// A value decoded from zeros and empty containers, for key-path probes only.
  public static var probeValue: Self {
    do {
      return try Self(from: ZeroDecoder())
    } catch {
      fatalError("\(Self.self) cannot be built for a key-path probe: \(error)")
    }
  }
}
