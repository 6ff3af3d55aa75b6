extension ScriptEngine {
  /// A completer over the classes registered and declared so far.
  var completer: Completer {
    var classes: [String: Completer.Members] = [:]
    for entity in catalog.entities {
      var members = Completer.Members(
        attributes: [], relationships: entity.relationships.map { ($0.name, $0.destination) })
      // A Codable attribute leads to its fields, like a relationship to a class.
      for attribute in entity.attributes {
        if case .composite(let type) = attribute.valueType {
          members.relationships.append((attribute.name, Completer.codablePrefix + type))
        } else {
          members.attributes.append(attribute.name)
        }
      }
      classes[entity.name] = members
    }
    for declaration in schema.pending where classes[declaration.name] == nil {
      var members = Completer.Members(attributes: [], relationships: [])
      for member in declaration.members {
        if ScriptSchema.valueType(member.typeName) != nil {
          members.attributes.append(member.name)
        } else {
          members.relationships.append((member.name, member.typeName))
        }
      }
      classes[declaration.name] = members
    }
    var completer = Completer(classes: classes)
    completer.codableFields = { [weak self] destination in
      guard let self, destination.hasPrefix(Completer.codablePrefix) else { return nil }
      let path = String(destination.dropFirst(Completer.codablePrefix.count))
      guard let shape = compositeShape(path) else { return nil }
      var members = Completer.Members(attributes: [], relationships: [])
      for (name, field) in shape.fields.sorted(by: { $0.key < $1.key }) {
        if case .object? = field.kind {
          members.relationships.append((name, Completer.codablePrefix + path + "." + name))
        } else {
          members.attributes.append(name)
        }
      }
      return members
    }
    return completer
  }
}
