/// A relationship entry to remove after a rebase, so a to-one relationship and its inverse
/// stay symmetric when two sessions moved the same object.
struct InverseFix {
  var owner: ObjectKey
  var slot: Int
  var remove: ObjectKey
}
