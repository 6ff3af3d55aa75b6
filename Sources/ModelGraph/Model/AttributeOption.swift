import ModelGraphCore

/// An option of an `@Attribute` declaration, spelled as SwiftData spells its
/// `Schema.Attribute.Option`.
///
/// ``unique`` and ``preserveValueOnDeletion`` change behaviour. The others are accepted so
/// SwiftData code compiles unchanged, and have no effect on how ModelGraph stores the value;
/// each one's documentation says what happens instead.
public struct AttributeOption: Sendable, Hashable {
  @usableFromInline let code: UInt8
  /// The transformer a `transformable(by:)` option names.
  let transformerName: String?

  @usableFromInline
  enum Code {
    @usableFromInline static let unique: UInt8 = 0
    @usableFromInline static let preserveValueOnDeletion: UInt8 = 1
    static let externalStorage: UInt8 = 2
    static let allowsCloudEncryption: UInt8 = 3
    static let spotlight: UInt8 = 4
    static let ephemeral: UInt8 = 5
    static let transformable: UInt8 = 6
    static let codable: UInt8 = 7
  }

  init(code: UInt8, transformerName: String? = nil) {
    self.code = code
    self.transformerName = transformerName
  }

  /// Values must be unique across the class hierarchy (checked on save).
  public static var unique: AttributeOption { AttributeOption(code: Code.unique) }

  /// A deleted object's value stays readable from its deletion record.
  public static var preserveValueOnDeletion: AttributeOption {
    AttributeOption(code: Code.preserveValueOnDeletion)
  }

  /// Accepted for SwiftData code; no effect: the value is kept in memory and written into the
  /// store file with the other attributes, not in a file beside it.
  public static var externalStorage: AttributeOption { AttributeOption(code: Code.externalStorage) }

  /// Accepted for SwiftData code; no effect: there is no cloud sync, and the store file holds
  /// the value unencrypted.
  public static var allowsCloudEncryption: AttributeOption {
    AttributeOption(code: Code.allowsCloudEncryption)
  }

  /// Accepted for SwiftData code; no effect: there is no Spotlight index.
  public static var spotlight: AttributeOption { AttributeOption(code: Code.spotlight) }

  /// Accepted for SwiftData code, where it means "track changes but do not persist"; no effect
  /// here: the value is saved and written to the store file like any attribute's.
  ///
  /// > Important: Declare a property that must never reach the store file with
  /// > ``Transient`` instead.
  public static var ephemeral: AttributeOption { AttributeOption(code: Code.ephemeral) }

  /// Accepted for SwiftData code; no effect: a `Codable` attribute type without a
  /// ``PersistentValue`` conformance is always stored in its `Codable` form (JSON).
  public static var codable: AttributeOption { AttributeOption(code: Code.codable) }

  /// Accepted for SwiftData code; no effect: the transformer is not called, and the value is
  /// stored in the form its type has here (its ``PersistentValue`` or `Codable` form).
  ///
  /// - Parameter transformerName: The name a `ValueTransformer` is registered under.
  public static func transformable(by transformerName: String) -> AttributeOption {
    AttributeOption(code: Code.transformable, transformerName: transformerName)
  }

  /// Accepted for SwiftData code; no effect: the transformer is not called (Foundation has no
  /// `ValueTransformer` on Linux), and the value is stored in the form its type has here.
  ///
  /// - Parameter transformerType: The transformer's type.
  public static func transformable(by transformerType: Any.Type) -> AttributeOption {
    AttributeOption(code: Code.transformable, transformerName: String(reflecting: transformerType))
  }
}
