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

/// A course and its students, in the order they enrolled.
class Course: PersistentModel {
  @Attribute var title: String
  @Relationship var students: [Student]

  convenience init(title: String) {
    self.init()
    self.title = title
  }
}
