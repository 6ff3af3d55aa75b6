// The relationships guide as a program: departments and employees, students and courses, a
// library's delete rules, and a product with a struct attribute, a transient value and a
// renamed attribute. Everything lives in memory.
//
//     swift run company-playground

import ModelGraph

let container = try ModelContainer(
  for: Department.self, Student.self, Library.self, Product.self,
  configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)
try runStaffSection(context)
try runCampusSection(context)
try runLibrarySection(context)
try runProductSection(container)
