import Testing

@testable import ModelGraphCore

/// Cascading deletes through self-referencing relationships, against a naive model: the
/// session's delete rules (reading related keys in place, reusing its work lists) must delete
/// exactly the objects the model does and leave every inverse as the model does.
@Suite("Session graph rules: cascading deletes against a model")
struct CascadeDeleteTests {
  static let node = 0
  static let children = 0
  static let parent = 1
  static let peers = 2
  static let peerOf = 3

  /// `Node(label, children ->> Node cascade, parent -> Node, peers ->> Node, peerOf ->> Node)`:
  /// children and parent are inverses, and so are peers and peerOf (both nullify).
  static func makeSession() throws -> Session {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Node",
        attributes: [AttributeDescription(name: "label", valueType: .int)],
        relationships: [
          RelationshipDescription(
            name: "children", destination: "Node", isToMany: true, inverse: "parent",
            deleteRule: .cascade),
          RelationshipDescription(
            name: "parent", destination: "Node", isToMany: false, inverse: "children"),
          RelationshipDescription(
            name: "peers", destination: "Node", isToMany: true, inverse: "peerOf"),
          RelationshipDescription(
            name: "peerOf", destination: "Node", isToMany: true, inverse: "peers"),
        ])
    ])
    return Session(store: store)
  }

  /// The model: each node's parent, children and peers (in order), and who is alive.
  struct Model {
    var parent: [Int?] = []
    var children: [[Int]] = []
    var peers: [[Int]] = []
    var alive: [Bool] = []

    /// Deletes `node` and its descendants; returns them.
    mutating func delete(_ node: Int) -> Set<Int> {
      var gone = Set<Int>()
      var pending = [node]
      while let current = pending.popLast() {
        guard alive[current], gone.insert(current).inserted else { continue }
        pending += children[current]
      }
      for node in gone { alive[node] = false }
      for node in alive.indices where alive[node] {
        children[node].removeAll { gone.contains($0) }
        peers[node].removeAll { gone.contains($0) }
        if let up = parent[node], gone.contains(up) { parent[node] = nil }
      }
      return gone
    }
  }

  @Test(
    "deleting with or without listing the keys deletes what the model deletes",
    arguments: [11 as UInt64, 12, 13])
  func cascadesAgreeWithModel(seed: UInt64) throws {
    var random = QueryRandom(seed: seed)
    let listing = try Self.makeSession()
    let counting = try Self.makeSession()
    var model = Model()
    var keys: [ObjectKey] = []
    for index in 0..<80 {
      let up =
        index > 0 && Int.random(in: 0..<4, using: &random) > 0
        ? Int.random(in: 0..<index, using: &random) : nil
      let peers =
        index > 0
        ? Array(
          Set(
            (0..<Int.random(in: 0...3, using: &random)).map { _ in
              Int.random(in: 0..<index, using: &random)
            })
        ).sorted() : []
      for session in [listing, counting] {
        let key = session.insert(entity: Self.node)
        session.set(Int64(index), slot: 0, of: key)
        if let up { session.setRelationship(of: key, slot: Self.parent, to: [keys[up]]) }
        session.setRelationship(of: key, slot: Self.peers, to: peers.map { keys[$0] })
        if session === listing { keys.append(key) }
      }
      model.parent.append(up)
      model.children.append([])
      if let up { model.children[up].append(index) }
      model.peers.append(peers)
      model.alive.append(true)
    }
    try listing.save()
    try counting.save()
    for round in 0..<12 {
      let victim = Int.random(in: 0..<keys.count, using: &random)
      let expected = model.delete(victim)
      let listed = listing.deleteApplyingRules(keys[victim])
      let counted = counting.deleteApplyingRulesCounting(keys[victim])
      #expect(Set(listed.compactMap { keys.firstIndex(of: $0) }) == expected, "round \(round)")
      #expect(listed.first == (expected.isEmpty ? nil : keys[victim]), "round \(round)")
      #expect(listed.count == expected.count && counted == expected.count, "round \(round)")
      for node in keys.indices {
        for session in [listing, counting] {
          #expect(session.contains(keys[node]) == model.alive[node], "round \(round), \(node)")
          guard model.alive[node] else { continue }
          let children = session.relatedKeys(of: keys[node], slot: Self.children)
          let peers = session.relatedKeys(of: keys[node], slot: Self.peers)
          let parent = session.relatedKeys(of: keys[node], slot: Self.parent)
          #expect(children == model.children[node].map { keys[$0] }, "round \(round), \(node)")
          #expect(peers == model.peers[node].map { keys[$0] }, "round \(round), \(node)")
          #expect(parent == (model.parent[node].map { [keys[$0]] } ?? []), "round \(round)")
        }
      }
      if round % 4 == 3 {
        try listing.save()
        try counting.save()
      }
    }
  }
}
