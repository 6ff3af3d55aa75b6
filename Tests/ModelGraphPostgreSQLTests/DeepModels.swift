import Foundation
import ModelGraph

/// A firm with branches, each with workers: two relationships with inverses in a row.
class Firm: PersistentModel {
  @Attribute(.unique) var name: String
  @Relationship(deleteRule: .cascade, inverse: \Branch.firm) var branches: [Branch]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A branch of a firm, at a site that does not know its branches (no inverse).
class Branch: PersistentModel {
  @Attribute var name: String
  @Relationship var firm: Firm?
  @Relationship(inverse: \Worker.branch) var workers: [Worker]
  @Relationship var site: Site?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A worker at a branch.
class Worker: PersistentModel {
  @Attribute var name: String
  @Attribute var score: Int
  @Relationship var branch: Branch?

  convenience init(name: String, score: Int) {
    self.init()
    self.name = name
    self.score = score
  }
}

/// Where a branch is; it does not list its branches.
class Site: PersistentModel {
  @Attribute var city: String

  convenience init(city: String) {
    self.init()
    self.city = city
  }
}

/// The classes of the firm schema.
let firmTypes: [any PersistentModel.Type] = [Firm.self, Branch.self, Worker.self, Site.self]
