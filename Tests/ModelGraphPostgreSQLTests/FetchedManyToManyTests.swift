import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A club with pupils, each pupil in several clubs (a many-to-many relationship).
class Club: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \Pupil.clubs) var pupils: [Pupil]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A pupil of several clubs.
class Pupil: PersistentModel {
  @Attribute var name: String
  @Attribute var grade: Int
  @Relationship var clubs: [Club]

  convenience init(name: String, grade: Int) {
    self.init()
    self.name = name
    self.grade = grade
  }
}

extension PostgreSQLStoreSuites.FetchedResidency {
  /// A fetch through a many-to-many relationship with unsaved changes on both sides.
  @Suite("Many-to-many fetches with unsaved changes") struct FetchedManyToMany {
    /// Clubs c0…c11 and pupils p0…p19 (grade `i % 6`), pupil `i` in clubs `i % 12` and
    /// `(i * 5) % 12`.
    static func seed(_ url: URL) throws {
      let context = ModelContext(try TestServer.container([Club.self, Pupil.self], at: url))
      let clubs = (0..<12).map { Club(name: "c\($0 < 10 ? "0" : "")\($0)") }
      clubs.forEach(context.insert)
      for index in 0..<20 {
        let pupil = Pupil(name: "p\(index)", grade: index % 6)
        context.insert(pupil)
        pupil.clubs = Array(Set([index % 12, (index * 5) % 12])).sorted().map { clubs[$0] }
      }
      try context.save()
    }

    /// Changes on both sides: a pupil leaves and joins clubs, a club drops and takes pupils,
    /// grades drop, a pupil and a club are deleted, a pupil is added.
    static func change(_ context: ModelContext) throws {
      func club(_ name: String) throws -> Club {
        try #require(
          try context.fetch(FetchDescriptor<Club>(predicate: #Predicate { $0.name == name })).first)
      }
      func pupil(_ name: String) throws -> Pupil {
        try #require(
          try context.fetch(FetchDescriptor<Pupil>(predicate: #Predicate { $0.name == name }))
            .first)
      }
      try pupil("p3").clubs = [try club("c07")]
      let eight = try club("c08")
      eight.pupils = Array(eight.pupils.dropFirst()) + [try pupil("p1")]
      for name in ["p10", "p11", "p16", "p17"] { try pupil(name).grade = 0 }
      context.delete(try pupil("p5"))
      context.delete(try club("c02"))
      let added = Pupil(name: "new", grade: 9)
      context.insert(added)
      added.clubs = [try club("c11"), try club("c00")]
    }

    /// The club fetches compared.
    static func descriptors() -> [(String, FetchDescriptor<Club>)] {
      var all: [(String, FetchDescriptor<Club>)] = []
      for (offset, limit) in [(0, 2), (2, 3), (0, 12)] {
        for reverse in [false, true] {
          let order = [SortDescriptor(\Club.name, order: reverse ? .reverse : .forward)]
          var busy = FetchDescriptor<Club>(
            predicate: #Predicate { $0.pupils.count > 2 }, sortBy: order)
          (busy.fetchOffset, busy.fetchLimit) = (offset, limit)
          all.append(("busy \(reverse) \(offset) \(limit)", busy))
          var graded = FetchDescriptor<Club>(
            predicate: #Predicate { $0.pupils.contains { $0.grade >= 4 } }, sortBy: order)
          (graded.fetchOffset, graded.fetchLimit) = (offset, limit)
          all.append(("a grade 4 or more \(reverse) \(offset) \(limit)", graded))
        }
      }
      return all
    }

    @Test("clubs by their pupils, as in full mode")
    func differential() throws {
      let url = try TestServer.freshURL()
      try Self.seed(url)
      let types: [any PersistentModel.Type] = [Club.self, Pupil.self]
      let full = ModelContext(try TestServer.container(types, at: url))
      try Self.change(full)
      let fetched = PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url)
      for (name, descriptor) in Self.descriptors() {
        let expected = try full.fetch(descriptor).map(\.name)
        let cold = ModelContext(try TestServer.container(types, at: fetched))
        try Self.change(cold)
        #expect(try cold.fetch(descriptor).map(\.name) == expected, "\(name)")
        let counting = ModelContext(try TestServer.container(types, at: fetched))
        try Self.change(counting)
        #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
      }
    }
  }
}
