import ModelGraphCore

extension ModelContainer {
  /// The shapes of the Codable types the attributes of `classes` store as composite values,
  /// by type name, for the file's schema.
  static func codableShapes(of classes: [ModelObject.Type]) -> [String: CodableShape] {
    var shapes: [String: CodableShape] = [:]
    for model in classes {
      for field in ModelClassInfo.info(for: model).attributeWrappers {
        guard case .composite(let name) = field.type.attributeValueType, shapes[name] == nil
        else { continue }
        let declared = field.type.valueSwiftType
        let wrapped = (declared as? any _OptionalType.Type)?.wrappedType ?? declared
        guard let decodable = wrapped as? any Decodable.Type,
          let shape = CodableShapeProbe.shape(of: decodable)
        else { continue }
        shapes[name] = shape
      }
    }
    return shapes
  }
}
