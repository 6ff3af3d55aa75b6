import ModelGraph

/// A student takes many courses; a course has many students (many-to-many).
class Student: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \Course.students) var courses: [Course]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A course in a term, and its students in the order they enrolled; a title is given once per
/// term (SwiftData: `#Unique<Course>([\.title, \.term])`).
class Course: PersistentModel, IndexedModel {
  @Attribute var title: String
  @Attribute var term: String
  @Relationship var students: [Student]

  class var indexes: [ModelIndex] { [.unique(\Course.title, \Course.term)] }

  convenience init(title: String, term: String = "Fall") {
    self.init()
    self.title = title
    self.term = term
  }
}
