import Foundation
import ModelGraph
import Testing

/// Runs `body`, which must throw a `ModelError` of `code` whose message is `message` followed by
/// " while evaluating the predicate" (on a `residency=fetched` PostgreSQL store, which does not
/// say which operator failed, whose message starts with `message`'s kind of fault).
func expectFault(
  _ code: ModelError.Code, _ message: String, _ label: String,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("\(label): no error")
  } catch let error as ModelError {
    #expect(error.code == code, "\(label): \(error)")
    if testsRunOnFetchedResidency {
      let kind = message.components(separatedBy: " in '")[0]
      #expect(error.message.hasPrefix(kind), "\(label): \(error.message)")
    } else {
      #expect(error.message == "\(message) while evaluating the predicate", "\(label)")
    }
  } catch {
    Issue.record("\(label): \(error)")
  }
}

/// A predicate on `Row`, the code it faults with, and the message's start.
struct FaultingPredicate<Row: PersistentModel>: CustomTestStringConvertible, Sendable {
  let name: String
  let predicate: @Sendable () -> Predicate<Row>
  let code: ModelError.Code
  let message: String
  var testDescription: String { name }
}
