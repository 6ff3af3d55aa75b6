import Foundation
import ModelGraphCore

extension PredicateTranslator {
  /// A value captured by a predicate, in the engine's storage representation.
  ///
  /// Attribute types convert through ``PersistentValue`` (an enum becomes its raw value, a
  /// `Float` a `Double`), model objects become their keys, sequences become lists.
  func constant(_ value: Any) throws -> QueryExpression {
    if let optional = value as? any _OptionalValue {
      guard let wrapped = optional.wrappedValue else { return .constant(.null) }
      return try constant(wrapped)
    }
    if let model = value as? ModelObject {
      guard let context, model._context === context, model._status != .new else {
        return .object(nil)
      }
      return .object(model._key)
    }
    if let result = value as? ComparisonResult { return .constant(.int(Int64(result.rawValue))) }
    if let identifier = value as? PersistentIdentifier {
      return .object(
        context?.key(for: identifier).flatMap { context?.session.contains($0) == true ? $0 : nil })
    }
    if value is any CompositeValue {
      throw Untranslatable("a captured \(type(of: value)) (composite values compare as Swift does)")
    }
    if let persistent = value as? any PersistentValue {
      return .constant(persistent.stored.modelValue)
    }
    if let sequence = value as? any Sequence {
      let elements = sequenceElements(sequence)
      if elements.contains(where: { $0 is PersistentIdentifier || $0 is ModelObject }) {
        throw Untranslatable("a list of model identifiers (compare them one by one with ||)")
      }
      return .constant(
        .array(
          try elements.map { element -> ModelValue in
            guard case .constant(let value) = try constant(element) else {
              throw Untranslatable("a list of \(type(of: element))")
            }
            return value
          }))
    }
    throw Untranslatable("a captured \(type(of: value))")
  }
}

/// `Optional`, seen without its wrapped type.
protocol _OptionalValue {
  var wrappedValue: Any? { get }
}

extension Optional: _OptionalValue {
  var wrappedValue: Any? { self.map { $0 as Any } }
}

private func sequenceElements<S: Sequence>(_ sequence: S) -> [Any] {
  sequence.map { $0 as Any }
}

/// The conversion of captured values of one Swift type, chosen once per type: attribute types
/// convert through their stored form directly; anything else takes the general path.
enum ConstantConversion {
  typealias Converter = (Any, PredicateTranslator) throws -> QueryExpression

  /// The converter of one type, and whether it reads the translator (its context).
  struct Entry: @unchecked Sendable {
    // @unchecked Sendable: the closures capture nothing mutable.
    let convert: Converter
    let needsTranslator: Bool
    /// The conversion of a value of exactly ``type``, read in place (no cast from `Any`), for
    /// a type that converts without a translator.
    var direct: ((UnsafeRawPointer) -> QueryExpression)? = nil
    /// The type ``direct`` reads.
    var type: Any.Type? = nil

    /// `value` converted: in place when it is of ``type``.
    @inline(__always)
    func converted<Value>(_ value: Value, _ translator: PredicateTranslator) throws
      -> QueryExpression
    {
      if let direct, type == Value.self {
        return withUnsafePointer(to: value) { direct(UnsafeRawPointer($0)) }
      }
      return try convert(value as Any, translator)
    }
  }

  private static let cache = ThreadCache<ObjectIdentifier, Entry>()

  /// The converter of values of `type`.
  static func converter(for type: Any.Type) -> Converter { entry(for: type).convert }

  /// The converter of values of `type`, and whether it reads the translator.
  static func entry(for type: Any.Type) -> Entry {
    cache.value(for: ObjectIdentifier(type)) { make(type) }
  }

  private static func make(_ type: Any.Type) -> Entry {
    let unwrapped = PredicateValueTypes.unwrapped(type)
    let general = Entry(
      convert: { value, translator in try translator.constant(value) }, needsTranslator: true)
    if unwrapped is ModelObject.Type || unwrapped == PersistentIdentifier.self
      || unwrapped == ComparisonResult.self || type is any CompositeValue.Type
      || unwrapped is any CompositeValue.Type
    {
      return general
    }
    if let persistent = type as? any PersistentValue.Type {
      return Entry(
        convert: stored(persistent), needsTranslator: false, direct: storedInPlace(persistent),
        type: type)
    }
    return general
  }

  private static func stored<Value: PersistentValue>(_: Value.Type) -> Converter {
    { value, _ in .constant((value as! Value).stored.modelValue) }
  }

  private static func storedInPlace<Value: PersistentValue>(_: Value.Type) -> (
    UnsafeRawPointer
  ) -> QueryExpression {
    { pointer in .constant(pointer.assumingMemoryBound(to: Value.self).pointee.stored.modelValue) }
  }
}
