extension EntityDescription {
  /// The description without what is physical: no declared indexes, no default values.
  ///
  /// What remains decides what the stored data means; two descriptions with the same
  /// definition read and write the same tables.
  public var definition: EntityDescription {
    var result = self
    result.indexes = []
    for slot in result.attributes.indices { result.attributes[slot].defaultValue = nil }
    return result
  }

  /// Whether this description and `other` differ at most in their indexes and default
  /// values, which change how queries run and what a new object starts with, never the data.
  ///
  /// A file written by one front end opens in the other whatever indexes each declared.
  public func hasSameDefinition(as other: EntityDescription) -> Bool {
    definition == other.definition
  }
}
