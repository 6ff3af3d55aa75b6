import ModelGraph

/// Prints a failed save's error, indented, one violation a line.
func report(_ error: ModelError) {
  for line in error.description.split(separator: "\n") { print("    \(line)") }
}

/// `names` joined with ", ", or "none" when there are none.
func list(_ names: [String]) -> String {
  names.isEmpty ? "none" : names.joined(separator: ", ")
}
