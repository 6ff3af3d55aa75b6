/// A bound plan of a session's plan cache, held by a front end that runs requests of one key
/// again without looking the plan up (see
/// ``QueryPlanner/boundPlan(_:values:prepared:session:indexes:declarations:)``).
///
/// It serves only while the cache keeps the same bound plans (its ``generation``): a plan
/// the cache dropped (a move to another store version, or a plan evicted) is not run.
package struct PreparedBoundPlan {
  let bound: BoundPlan
  /// The plan cache's generation when the plan was found.
  let generation: Int
}
