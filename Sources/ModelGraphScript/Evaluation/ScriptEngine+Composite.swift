import Foundation
import ModelGraphCore

extension ScriptEngine {
  /// A binder over the catalog and the script's variables, reading the fields of Codable
  /// values from the shape of the stored ones.
  func makeBinder(root: Int?) -> Binder {
    var binder = Binder(catalog: catalog, root: root, scriptVariables: variables)
    binder.compositeShape = { [unowned self] path in compositeShape(path) }
    return binder
  }

  /// The shape of the Codable type or field path `path` (`Address`, `Address.geo`): as the
  /// file's schema records it (a Swift model declared it), else inferred from every stored
  /// value of the type, unsaved ones included; `nil` for a path through a field that is not a
  /// nested value.
  func compositeShape(_ path: String) -> CompositeShape? {
    let parts = path.split(separator: ".").map(String.init)
    var shape = rootShape(parts[0])
    for name in parts.dropFirst() {
      switch shape.fields[name]?.kind {
      case .object(let nested)?: shape = nested
      default: return nil
      }
    }
    return shape
  }

  /// The shape of every stored value of the Codable type `name`, in every attribute of that
  /// type; kept until the next save while nothing is unsaved, and for the rest of the
  /// statement otherwise (an `update` of many objects reads it once).
  private func rootShape(_ name: String) -> CompositeShape {
    if let declared = catalog.codableShapes[name] { return CompositeShape(declared: declared) }
    let version = store.version.number
    if let cached = shapeCache[name], cached.version == version,
      cached.statement == statementNumber || (cached.clean && !session.hasChanges)
    {
      return cached.shape
    }
    var shape = CompositeShape()
    let evaluator = evaluator
    for entity in catalog.entities {
      // Each class's own attributes: a subclass's objects are reached through the ancestor.
      for attribute in entity.description.attributes where attribute.valueType == .composite(name) {
        let keys =
          (try? keys(
            entity: entity.index, isExact: false, condition: nil, sort: [], offset: 0, limit: nil))
          ?? []
        for key in keys {
          guard case .data(let data) = evaluator.attribute(attribute.name, of: key),
            let value = ImportValue(json: data)
          else { continue }
          shape.add(value)
        }
      }
    }
    shapeCache[name] = (version, statementNumber, !session.hasChanges, shape)
    return shape
  }
}
