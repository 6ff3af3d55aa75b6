import ModelGraphCore
public import Synchronization

/// Where the arguments of `@Attribute` and `@Relationship` declarations are kept, so a wrapper
/// stores none of them.
///
/// A declaration's arguments (options, `originalName:`, delete rule, counts, the inverse) are
/// the same for every object of a class and are read only when the schema is read, from the
/// class's prototype object. So a wrapper keeps them only while a prototype is being made: the
/// wrapper's initializer then records them here and keeps the record's number. Any other
/// wrapper records nothing and holds no reference-counted field, so making and freeing an
/// object retains and releases nothing for its declarations.
@usableFromInline
enum DeclarationRecorder {
  /// The number of prototypes being made now, on any thread. Only while it is above zero do
  /// wrappers record their declarations (a wrapper another thread makes meanwhile records its
  /// own too: a few unused entries, never a wrong one).
  @usableFromInline static let recordingCount = Atomic<Int>(0)

  /// What a declaration said, by record number. Records are never removed: prototypes live as
  /// long as the process, and so do the numbers their wrappers hold.
  private static let records = Locked<[Record]>([])

  /// One recorded declaration.
  enum Record: @unchecked Sendable {
    // @unchecked Sendable: the inverse closure of a relationship is the `inverse:` argument,
    // a key-path expression whose evaluation touches no shared mutable state.
    case attribute(options: UInt8, originalName: String?)
    case relationship(RelationshipDeclaration)
  }

  /// The number a wrapper stores when it recorded nothing.
  @usableFromInline static let none: Int32 = -1

  /// The number an `@Attribute` declared without options or `originalName:` stores, in every
  /// object: such a declaration has nothing to record.
  @usableFromInline static let plain: Int32 = -2

  /// Whether wrappers made now record their declarations.
  ///
  /// - Complexity: One relaxed atomic load.
  @inlinable static var isRecording: Bool {
    recordingCount.load(ordering: .relaxed) != 0
  }

  /// Records an `@Attribute` declaration; returns its number.
  @usableFromInline
  static func recordAttribute(_ options: [AttributeOption], originalName: String?) -> Int32 {
    record(.attribute(options: AttributeDeclaration.bits(options), originalName: originalName))
  }

  /// Records a `@Relationship` declaration; returns its number.
  @usableFromInline
  static func recordRelationship(
    deleteRule: DeleteRule, minimumModelCount: Int?, maximumModelCount: Int?,
    originalName: String?, inverse: @escaping () -> AnyKeyPath?
  ) -> Int32 {
    record(
      .relationship(
        RelationshipDeclaration(
          deleteRule: deleteRule, inverse: inverse,
          minimumModelCount: Int32(clamping: minimumModelCount ?? 0),
          maximumModelCount: Int32(clamping: maximumModelCount ?? 0),
          originalName: originalName)))
  }

  private static func record(_ record: Record) -> Int32 {
    records.withLock { records in
      records.append(record)
      return Int32(records.count - 1)
    }
  }

  /// The record with `number`; `nil` for ``none`` or a number never handed out.
  static func record(_ number: Int32) -> Record? {
    records.withLock { $0.indices.contains(Int(number)) ? $0[Int(number)] : nil }
  }

  /// Runs `body` (which makes a prototype object) with recording on.
  static func recording<R>(_ body: () throws -> R) rethrows -> R {
    recordingCount.add(1, ordering: .relaxed)
    defer { recordingCount.subtract(1, ordering: .relaxed) }
    return try body()
  }
}
