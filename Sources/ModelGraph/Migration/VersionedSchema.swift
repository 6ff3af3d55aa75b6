/// One version of an app's schema: a version number and the model classes of that version.
///
/// Declare each version's classes inside the version's type, so that several versions of a
/// class can exist side by side; the entity name is the class's own name, so `V1.Trip` and
/// `V2.Trip` are versions of the entity `Trip`:
/// ```swift
/// enum TripsV1: VersionedSchema {
///   static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
///   static var models: [PersistentModel.Type] { [Trip.self] }
///   final class Trip: PersistentModel { @Attribute var name: String }
/// }
/// ```
/// List every class of the version, subclasses included: a class that is not listed (and is
/// not an ancestor or relationship destination of one that is) is not part of the version.
public protocol VersionedSchema {
  /// The version, unique within a migration plan.
  static var versionIdentifier: SchemaVersion { get }
  /// The model classes of this version.
  static var models: [any PersistentModel.Type] { get }
}
