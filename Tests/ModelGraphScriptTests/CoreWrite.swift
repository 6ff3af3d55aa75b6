import Foundation
import ModelGraphCore
import Testing

/// Writes `value` into `attribute` of row 0 of `entity` in the file at `url` as another process
/// would through the core, whose sessions publish without validating: one journal record that
/// a typed open must then refuse or accept.
func writeThroughCore(
  _ value: ModelValue, entity name: String, attribute: String, in url: URL
) throws {
  let files = StoreFiles(path: url.path)
  let recovered = try files.recover()
  let store = Store(loading: try #require(recovered.version))
  let journal = try files.openJournal(for: store, after: recovered, rewrite: false)
  store.attach(journal)
  let session = Session(store: store)
  let entity = try #require(store.version.catalog.entity(named: name))
  let key = ObjectKey(
    entity: entity.index, row: 0,
    generation: store.version.tables[entity.index].generation(of: 0))
  let slot = try #require(entity.attributeSlot(named: attribute))
  #expect(session.writeAttribute(value, slot: slot, of: key))
  try session.save()
  journal.close()
}
