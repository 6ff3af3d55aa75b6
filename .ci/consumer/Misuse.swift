import ModelGraph

// Must not compile (.ci/consumer-test checks each error): engine types are not in scope
// through `import ModelGraph`, and SwiftData relationship spellings ModelGraph does not take
// fail with a message that names the fix.

let session: Session? = nil
let table: Table? = nil

class Tag: PersistentModel {
  @Attribute var name: String
}

class Recipe: PersistentModel {
  @Relationship var tags: [Tag] = []
  @Relationship var moreTags: [Tag]?
  @Relationship var mainTag: Tag
}
