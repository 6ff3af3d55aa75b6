extension SchemaCatalog {
  /// The index of the entity that declares attribute `slot` of `entity`: the ancestor (or the
  /// entity itself) whose own attributes reach that slot. A `.unique` attribute is unique
  /// across this entity and its descendants.
  public func declaringEntity(ofAttribute slot: Int, in entity: ResolvedEntity) -> Int {
    entity.lineage.first { entities[$0].attributes.count > slot } ?? entity.index
  }
}
