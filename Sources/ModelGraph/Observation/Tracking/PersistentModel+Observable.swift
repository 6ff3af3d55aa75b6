public import Observation

/// Model objects are `Observable`, as SwiftData's are: inside `withObservationTracking`,
/// reading an attribute or relationship of a managed object tracks it.
///
/// The tracking fires when the object's context writes the property (an assignment, a
/// relationship edit or its inverse, a rollback), and when the context moves onto another
/// context's save that changed it (a fetch, `model(for:)` or a save takes in other contexts'
/// saves). See <doc:ObservingModels> for the precise rules.
extension PersistentModel: Observable {}

extension PersistentModel {
  /// Tells the context's observation registrar that attribute `slot` was read.
  ///
  /// Outside `withObservationTracking` this is one call that finds no tracking and returns.
  @usableFromInline
  final func _accessAttribute(slot: Int) {
    guard let context = _context else { return }
    context.observation.registrar.access(
      self, keyPath: _classInfo.observedKeyPaths.attribute(slot, row: _row))
  }

  /// Tells the context's observation registrar that relationship `slot` was read.
  final func accessRelationship(slot: Int) {
    guard let context = _context else { return }
    context.observation.registrar.access(
      self, keyPath: _classInfo.observedKeyPaths.relationship(slot, row: _row))
  }
}
