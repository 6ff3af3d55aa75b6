/// Receives the graph edits a ``Session`` makes on its own: inverse updates, cascades and
/// nullified references, so a layer that keeps objects for rows can keep them in step.
public protocol SessionObserver: AnyObject {
  /// A relationship of `key` (by slot) was written in the working tables.
  func session(_ session: Session, didWriteRelationship slot: Int, of key: ObjectKey)
  /// The live object `key` is about to be deleted from the working tables.
  func session(_ session: Session, willDelete key: ObjectKey)
}
