import Foundation
import ModelGraphCore

extension ScriptEngine {
  /// A binder over the catalog and the script's variables, reading the fields of Codable
  /// values from the stored ones.
  func makeBinder(root: Int?) -> Binder {
    var binder = Binder(catalog: catalog, root: root, scriptVariables: variables)
    binder.sampleField = { [unowned self] path, field in sampleField(field, of: path) }
    return binder
  }

  /// The first stored value of `field` that shows its type in the Codable type (or field path) `path`:
  /// `city` of `Address`, or of `Address.geo`, searched in up to 10,000 objects.
  private func sampleField(_ field: String, of path: String) -> ImportValue? {
    let parts = path.split(separator: ".").map(String.init)
    let evaluator = evaluator
    var scanned = 0
    for entity in catalog.entities {
      for attribute in entity.description.attributes
      where attribute.valueType == .composite(parts[0]) {
        let keys =
          (try? keys(
            entity: entity.index, isExact: false, condition: nil, sort: [], offset: 0, limit: nil))
          ?? []
        for key in keys {
          scanned += 1
          if scanned > 10_000 { return nil }
          guard case .data(let data) = evaluator.attribute(attribute.name, of: key),
            var value = try? JSONDecoder().decode(ImportValue.self, from: data)
          else { continue }
          for name in parts.dropFirst() + [field] {
            guard case .object(let fields) = value, let next = fields[name] else {
              value = .null
              break
            }
            value = next
          }
          // An empty array or a null tells no type; another object may.
          if CompositeField.type(of: value, typeName: path) != nil { return value }
        }
      }
    }
    return nil
  }
}
