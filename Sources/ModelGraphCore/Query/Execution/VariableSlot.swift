/// The current value of a closure's variable while a compiled expression runs.
///
/// A `flatMap` or `contains(where:)` writes the value it binds, then runs its body, which
/// reads it; one slot per variable and compilation, so nothing is allocated per row.
final class VariableSlot<Value> {
  /// The value bound.
  var value: Value

  init(_ value: Value) { self.value = value }
}
