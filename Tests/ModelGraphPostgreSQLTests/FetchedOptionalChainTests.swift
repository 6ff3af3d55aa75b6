import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A node with an optional parent, without inverse: chains of them to follow with `?.`.
class ChainNode: PersistentModel {
  @Attribute var name: String
  @Relationship var parent: ChainNode?

  convenience init(name: String, parent: ChainNode?) {
    self.init()
    self.name = name
    self.parent = parent
  }
}

extension PostgreSQLStoreSuites.FetchedResidency {
  /// Optional chaining through to-one relationships, several levels deep.
  @Suite("Optional chains of to-one relationships") struct FetchedOptionalChain {
    /// `node?.parent`, as `#Predicate` writes it (built by hand: a literal chain this long is
    /// too much for the type checker).
    static func up(
      _ node: some StandardPredicateExpression<ChainNode?>
    ) -> some StandardPredicateExpression<ChainNode?> {
      PredicateExpressions.build_flatMap(node) {
        PredicateExpressions.build_KeyPath(root: $0, keyPath: \.parent)
      }
    }

    /// `node?.name`.
    static func name(
      _ node: some StandardPredicateExpression<ChainNode?>
    ) -> some StandardPredicateExpression<String?> {
      PredicateExpressions.build_flatMap(node) {
        PredicateExpressions.build_KeyPath(root: $0, keyPath: \.name)
      }
    }

    static func descriptors() -> [(String, FetchDescriptor<ChainNode>)] {
      var all: [(String, FetchDescriptor<ChainNode>)] = []
      func add(_ name: String, _ predicate: Predicate<ChainNode>) {
        all.append((name, FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])))
      }
      /// `$0.parent?.parent?.parent?.parent?.parent?.parent`.
      func six(
        _ node: PredicateExpressions.Variable<ChainNode>
      ) -> some StandardPredicateExpression<ChainNode?> {
        up(up(up(up(up(PredicateExpressions.build_KeyPath(root: node, keyPath: \.parent))))))
      }
      add(
        "6 levels ==",
        Predicate { node in
          PredicateExpressions.build_Equal(
            lhs: name(six(node)), rhs: PredicateExpressions.build_Arg(Optional("n1")))
        })
      add(
        "7 levels != (nil differs)",
        Predicate { node in
          PredicateExpressions.build_NotEqual(
            lhs: name(up(six(node))), rhs: PredicateExpressions.build_Arg(Optional("n2")))
        })
      add(
        "6 levels ?? a default",
        Predicate { node in
          PredicateExpressions.build_Equal(
            lhs: PredicateExpressions.build_NilCoalesce(
              lhs: name(six(node)), rhs: PredicateExpressions.build_Arg("none")),
            rhs: PredicateExpressions.build_Arg("none"))
        })
      return all
    }

    @Test("6 and 7 levels select full mode's objects, in SQL of linear size")
    func differential() throws {
      let url = try TestServer.freshURL()
      let seeding = ModelContext(try TestServer.container([ChainNode.self], at: url))
      // Runs of parents cut every 11 nodes; names repeat every 4.
      var nodes: [ChainNode] = []
      for index in 0..<80 {
        let node = ChainNode(
          name: "n\(index % 4)", parent: index % 11 == 0 ? nil : nodes[index - 1])
        seeding.insert(node)
        nodes.append(node)
      }
      try seeding.save()
      // A deleted parent reads as nil.
      for index in stride(from: 5, to: 80, by: 13) { seeding.delete(nodes[index]) }
      try seeding.save()
      let full = ModelContext(try TestServer.container([ChainNode.self], at: url))
      let partialContainer = try TestServer.container(
        [ChainNode.self], at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(\.persistentModelID)
        #expect(!expected.isEmpty, "\(name)")
        let partial = ModelContext(partialContainer)
        let explained = try partial.explain(descriptor)
        #expect(!explained.contains("not in SQL"), "\(name): \(explained)")
        let sql = try #require(explained.split(separator: "\n").first { $0.hasPrefix("sql: ") })
        // A bounded number of characters per level (each level wrote the chain so far twice:
        // 2^7 copies of the first relationship).
        #expect(sql.utf8.count < 8 * 700, "\(name): \(sql.utf8.count) characters")
        #expect(try partial.fetchCount(descriptor) == expected.count, "\(name)")
        #expect(try partial.fetch(descriptor).map(\.persistentModelID) == expected, "\(name)")
      }
    }
  }
}
