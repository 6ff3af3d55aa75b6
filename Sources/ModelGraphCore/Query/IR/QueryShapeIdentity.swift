import Synchronization

/// A front end's name for the shape of a request's condition, so the plan cache finds a plan
/// without computing and hashing the condition's ``QueryExpression/shape``.
///
/// Two requests with equal identities have conditions of equal shape: the front end gives one
/// ``template`` number to every condition it makes from one template with slots, and
/// ``values`` says which kind of value fills each slot (`nil` and Booleans by value, since
/// planning folds them).
package struct QueryShapeIdentity: Hashable, Sendable {
  /// The template's number, unique in the process.
  package let template: Int
  /// Each slot's ``ModelValue`` kind, four bits per slot, first slot lowest.
  package let values: UInt64

  /// The most slots an identity describes.
  package static let maximumSlots = 15

  private static let counter = Atomic<Int>(0)

  /// A template number not given before.
  package static func newTemplate() -> Int {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The identity of `template` filled with `values`; `nil` when a value is not a constant or
  /// an object, or there are more than ``maximumSlots`` values.
  package init?(template: Int, values: [QueryExpression]) {
    guard values.count <= Self.maximumSlots else { return nil }
    var kinds: UInt64 = 0
    for (position, value) in values.enumerated() {
      guard let kind = Self.kind(value) else { return nil }
      kinds |= kind << UInt64(4 * position)
    }
    self.template = template
    self.values = kinds
  }

  /// The kind of a slot's value: what its shape keeps of it.
  private static func kind(_ value: QueryExpression) -> UInt64? {
    switch value {
    case .object: 15
    case .constant(let constant):
      switch constant {
      case .null: 0
      case .bool(let flag): flag ? 1 : 2
      case .int: 3
      case .uint: 4
      case .double: 5
      case .string: 6
      case .date: 7
      case .uuid: 8
      case .url: 9
      case .data: 10
      case .decimal: 11
      case .array: 12
      }
    default: nil
    }
  }
}
