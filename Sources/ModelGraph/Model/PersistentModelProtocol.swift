/// A model class: the storage of ``ModelObject`` and the conformances SwiftData's
/// `PersistentModel` protocol has.
///
/// Declare each model class with it, and mark each persisted property with ``Attribute`` or
/// ``Relationship``, and each stored property that is not persisted with ``Transient``:
/// ```swift
/// class Trip: PersistentModel {
///   @Attribute var name: String
///   @Attribute(.unique) var id: UUID
///   @Transient var scratch = 0
/// }
/// class BusinessTrip: Trip { @Attribute var company: String }
/// ```
/// Generic code takes models as SwiftData's does: `func f<T: PersistentModel>(_: T)`,
/// `any PersistentModel`, `[any PersistentModel.Type]`. Because ``PersistentModelProtocol``
/// carries the superclass, `FetchDescriptor(predicate: #Predicate<Trip> { … })` infers `Trip`.
public typealias PersistentModel = ModelObject & PersistentModelProtocol

/// What makes a ``ModelObject`` subclass a model class; declare models with
/// ``PersistentModel``, which adds this protocol to the base class.
///
/// `Identifiable` is declared here rather than on the base class so a model can declare its
/// own `id` (`@Attribute(.unique) var id: UUID`); a model without one is identified by
/// `ObjectIdentifier`, as any class is.
public protocol PersistentModelProtocol: ModelObject, Hashable, Identifiable {}

extension ModelObject {
  /// The object as a model; every `ModelObject` is one, since making an instance of a class
  /// without ``PersistentModelProtocol`` stops the process (`ModelClassInfo`).
  var asModel: any PersistentModel {
    self as! any PersistentModel
  }
}
