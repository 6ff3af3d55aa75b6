/// Stops the process with `message` when `condition` is false: the trap of a broken usage
/// rule. Unlike `precondition`, whose message optimized builds drop, the message is printed in
/// every build, so the trap names the rule it enforces.
@inline(__always)
func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fatalError(message(), file: file, line: line) }
}

/// Stops the process: a model property wrapper is used in a type that is not a model class.
///
/// Out of line, so the inlined property accessors stay small.
@usableFromInline @inline(never)
func _wrapperOutsideModel(_ wrapper: StaticString) -> Never {
  fatalError("\(wrapper) used outside a model class (one declared `class Name: PersistentModel`)")
}
