extension ScriptEngine {
  /// A completer over the classes registered and declared so far.
  var completer: Completer {
    var classes: [String: Completer.Members] = [:]
    for entity in catalog.entities {
      classes[entity.name] = Completer.Members(
        attributes: entity.attributes.map(\.name),
        relationships: entity.relationships.map { ($0.name, $0.destination) })
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
    return Completer(classes: classes)
  }
}
