import Foundation
import ModelGraphCore

extension PredicateExpressions.KeyPath: QueryTranslatable
where Root: QueryTranslatable {
  func translate(_ translator: PredicateTranslator) throws -> QueryExpression {
    let base = try root.translate(translator)
    let rootType = Root.Output.self
    if rootType is ModelObject.Type {
      switch KeyPathResolution.property(keyPath) {
      case .attribute(let name): return .attribute(base, name)
      case .relationship(let name): return .relationship(base, name)
      case .identity: return base
      case nil:
        throw Untranslatable(
          "a key path of \(shortName(rootType)) that names no persisted attribute or "
            + "relationship (a computed or @Transient property)")
      }
    }
    let path = keyPath as AnyKeyPath
    if let array = rootType as? any _ArrayType.Type {
      if path == array.countKeyPath { return .count(base) }
      if path == array.isEmptyKeyPath {
        return .comparison(.count(base), .equal, .constant(.int(0)))
      }
    }
    if rootType == String.self {
      if path == \String.count { return .count(base) }
      if path == \String.isEmpty { return .comparison(base, .equal, .constant(.string(""))) }
    }
    throw Untranslatable("a key path of \(shortName(rootType)) the engine does not read")
  }
}
