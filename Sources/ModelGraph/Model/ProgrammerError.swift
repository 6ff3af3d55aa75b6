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
