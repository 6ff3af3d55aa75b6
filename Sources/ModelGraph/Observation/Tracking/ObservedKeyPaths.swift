import ModelGraphCore

/// The key paths a model class reports to the observation registrar, one per property and row
/// bucket, made once per class.
///
/// Observation identifies a tracked property by its key path. A key path per property alone
/// would make a write to one object's `name` fire every tracking of any object's `name` in
/// the context; a key path per property and object would cost an allocation per read. The
/// middle: the object's row picks one of ``bucketCount`` key paths per property, so a write
/// fires the trackings of that property on objects whose rows share its bucket (1 in 64).
struct ObservedKeyPaths: @unchecked Sendable {
  // @unchecked Sendable: immutable after init; key paths are immutable objects.

  /// The number of row buckets per property (a power of two).
  static let bucketCount = 64

  private let attributes: [KeyPath<ModelObject, Int>]
  /// ``attributes`` unretained, for reads that take no reference count (the array keeps them).
  private let unretainedAttributes: [Unmanaged<KeyPath<ModelObject, Int>>]
  private let relationships: [KeyPath<ModelObject, Int>]
  /// ``relationships`` unretained, for reads that take no reference count.
  private let unretainedRelationships: [Unmanaged<KeyPath<ModelObject, Int>>]

  /// The key paths of a class with `attributeCount` attributes and `relationshipCount`
  /// relationships.
  init(modelClass: ModelObject.Type, attributeCount: Int, relationshipCount: Int) {
    let id = ObjectIdentifier(modelClass)
    func make(_ kind: ObservedProperty.Kind, _ count: Int) -> [KeyPath<ModelObject, Int>] {
      (0..<count * Self.bucketCount).map { code in
        \ModelObject.[_observed: ObservedProperty(modelClass: id, kind: kind, code: code)]
      }
    }
    attributes = make(.attribute, attributeCount)
    unretainedAttributes = attributes.map(Unmanaged.passUnretained)
    relationships = make(.relationship, relationshipCount)
    unretainedRelationships = relationships.map(Unmanaged.passUnretained)
  }

  /// The key path of attribute `slot` of the object in `row`.
  @inline(__always)
  func attribute(_ slot: Int, row: Int) -> KeyPath<ModelObject, Int> {
    attributes[slot &* Self.bucketCount &+ (row & (Self.bucketCount - 1))]
  }

  /// ``attribute(_:row:)``, unretained.
  @inline(__always)
  func unretainedAttribute(_ slot: Int, row: Int) -> Unmanaged<KeyPath<ModelObject, Int>> {
    unretainedAttributes[slot &* Self.bucketCount &+ (row & (Self.bucketCount - 1))]
  }

  /// The key path of relationship `slot` of the object in `row`.
  @inline(__always)
  func relationship(_ slot: Int, row: Int) -> KeyPath<ModelObject, Int> {
    relationships[slot &* Self.bucketCount &+ (row & (Self.bucketCount - 1))]
  }

  /// ``relationship(_:row:)``, unretained.
  @inline(__always)
  func unretainedRelationship(_ slot: Int, row: Int) -> Unmanaged<KeyPath<ModelObject, Int>> {
    unretainedRelationships[slot &* Self.bucketCount &+ (row & (Self.bucketCount - 1))]
  }

  /// The number of attributes.
  var attributeCount: Int { attributes.count / Self.bucketCount }

  /// The number of relationships.
  var relationshipCount: Int { relationships.count / Self.bucketCount }
}

/// What one observation key path stands for: a property of a model class, in a row bucket.
struct ObservedProperty: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    case attribute
    case relationship
  }

  let modelClass: ObjectIdentifier
  let kind: Kind
  /// `slot * bucketCount + bucket`.
  let code: Int
}

extension ModelObject {
  /// The component of the observation key paths; reading it through a key path gives 0.
  subscript(_observed property: ObservedProperty) -> Int { 0 }
}
