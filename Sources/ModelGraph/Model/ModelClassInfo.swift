import ModelGraphCore
@_spi(Reflection) import Swift
import Synchronization

/// What reflection found in one model class: its wrappers, their offsets and slots, its entity.
///
/// Built once per class from the runtime's field metadata (names, offsets and types of every
/// stored property, inherited first), so no object and no key path is needed to learn the
/// schema, and every new object's wrappers are bound to their slots by offset in `init()`.
///
/// How a handle is made (materialization): a fetch looks up the model class and working table
/// once per run of keys of one entity (`ModelContext.materialize`); each object is one
/// allocation whose `init()` finds this info in a per-thread cache (``ThreadCache``: no lock,
/// no reference count on a hit) and writes each wrapper's slot by stored offset.
/// Wrappers hold no owner, table or row: an `@Attribute`'s accessor receives its object
/// (`_enclosingInstance`) and reads the value through the object's `_tableReference` and
/// the row of its `_key`, so binding an object to a row is two stores, whatever the
/// number of attributes. An attribute left unset at insertion is marked in its wrapper
/// (its slot's complement) until its first write, so reading it stops with its name.
final class ModelClassInfo: @unchecked Sendable {
  // @unchecked Sendable: every stored property is immutable after init except `lazyState`,
  // which is guarded by its mutex.

  struct AttributeField {
    var name: String
    var offset: Int
    var type: any _AttributeWrapper.Type
    /// The declared value type and where the wrapper keeps the value of a new object.
    var valueType: any PersistentValue.Type
    var valueOffset: Int
  }

  struct RelationshipField {
    var name: String
    var offset: Int
    var type: any _RelationshipWrapper.Type
  }

  let modelClass: ModelObject.Type
  let entityName: String
  /// The nearest ancestor that is a model class (not `PersistentModel` itself).
  let parentClass: ModelObject.Type?
  let attributeWrappers: [AttributeField]
  let relationshipWrappers: [RelationshipField]
  /// The offsets of the attribute and relationship wrappers, by slot, for binding.
  let attributeOffsets: [Int]
  let relationshipOffsets: [Int]
  /// Where ``bind(_:)`` writes each wrapper's slot, from the object's start: attributes' then
  /// relationships', by slot. Allocated once per class and never freed, as the info.
  private let attributeSlotOffsets: UnsafeBufferPointer<Int>
  private let relationshipSlotOffsets: UnsafeBufferPointer<Int>
  /// The number of attributes and relationships inherited from ancestors.
  let inheritedAttributeCount: Int
  let inheritedRelationshipCount: Int
  /// Problems found in the class's declarations, reported when a container registers it.
  let problems: [SchemaError]
  let lazyState = Locked(LazyState())
  /// The key paths the class's objects report to observation.
  let observedKeyPaths: ObservedKeyPaths

  struct LazyState: @unchecked Sendable {
    // @unchecked Sendable: only reached through the mutex.
    var prototype: ModelObject?
  }

  /// Every class's info, made once per class and never released (a class's layout lives as
  /// long as the process), so objects and lookups hold it without reference counting.
  private static let registry = ThreadCache<ObjectIdentifier, Unmanaged<ModelClassInfo>>()

  /// The infos of recently made objects' classes, read without a lock (see ``ClassInfoSlots``).
  private static let recent = ClassInfoSlots()

  /// The info of `modelClass`, built on first use.
  ///
  /// - Complexity: O(1), without a lock or a reference count after a thread's first use of the
  ///   class.
  static func info(for modelClass: ModelObject.Type) -> ModelClassInfo {
    reference(for: modelClass).takeUnretainedValue()
  }

  /// The info of `modelClass`, built on first use, without a reference count (class infos are
  /// never released).
  ///
  /// - Complexity: O(1): a hash of the class and one atomic load when the class's info is
  ///   among the recent ones (every object made after the first of its class, unless many
  ///   classes share its place); otherwise a thread-local lookup.
  @inline(__always)
  static func reference(for modelClass: ModelObject.Type) -> Unmanaged<ModelClassInfo> {
    if let info = recent.info(for: modelClass) { return info }
    return slowReference(for: modelClass)
  }

  @inline(never)
  private static func slowReference(for modelClass: ModelObject.Type)
    -> Unmanaged<ModelClassInfo>
  {
    var made: Unmanaged<ModelClassInfo>?
    let info = registry.value(for: ObjectIdentifier(modelClass)) {
      made = Unmanaged.passRetained(ModelClassInfo(modelClass))
      return made!
    }
    if let made, made.toOpaque() != info.toOpaque() {
      // Another thread registered the class first.
      made.release()
    }
    recent.remember(info, for: modelClass)
    return info
  }

  private init(_ modelClass: ModelObject.Type) {
    require(
      modelClass is any PersistentModelProtocol.Type,
      "\(modelClass) subclasses ModelObject without PersistentModelProtocol: declare it "
        + "`class \(modelClass): PersistentModel`")
    self.modelClass = modelClass
    entityName = String(describing: modelClass)
    let parent = _getSuperclass(modelClass) as? ModelObject.Type
    parentClass = parent == ModelObject.self ? nil : parent
    let parentInfo = parentClass.map { ModelClassInfo.info(for: $0) }
    let baseFieldCount = fieldCount(of: ModelObject.self)
    let inheritedFieldCount = parentClass.map { fieldCount(of: $0) } ?? baseFieldCount
    inheritedAttributeCount = parentInfo?.attributeWrappers.count ?? 0
    inheritedRelationshipCount = parentInfo?.relationshipWrappers.count ?? 0

    var attributes: [AttributeField] = []
    var relationships: [RelationshipField] = []
    var problems = parentInfo?.problems ?? []
    var index = 0
    let entityName = entityName
    _ = _forEachField(of: modelClass, options: classFieldOptions) { cName, offset, type, _ in
      defer { index += 1 }
      guard index >= baseFieldCount else { return true }
      let rawName = String(cString: cName)
      let name = rawName.hasPrefix("_") ? String(rawName.dropFirst()) : rawName
      if let attribute = type as? any _AttributeWrapper.Type {
        attributes.append(
          AttributeField(
            name: name, offset: offset, type: attribute,
            valueType: attribute.persistentValueType, valueOffset: attribute.valueOffset))
      } else if let relationship = type as? any _RelationshipWrapper.Type {
        relationships.append(RelationshipField(name: name, offset: offset, type: relationship))
      } else if type is any _TransientWrapper.Type || rawName.hasPrefix("$__lazy_storage_$_") {
        // Not persisted.
      } else if index >= inheritedFieldCount {
        problems.append(
          SchemaError(
            .unmarkedStoredProperty, entity: entityName, property: rawName,
            message:
              "stored property '\(rawName)' has neither @Attribute, @Relationship nor @Transient"))
      }
      return true
    }
    require(
      attributes.count <= Int(Int16.max),
      "\(entityName) declares \(attributes.count) attributes; at most \(Int16.max) are supported")
    attributeWrappers = attributes
    relationshipWrappers = relationships
    attributeOffsets = attributes.map(\.offset)
    relationshipOffsets = relationships.map(\.offset)
    let wrapperLayout = WrapperLayout.shared
    attributeSlotOffsets = Self.permanentBuffer(attributes.map { $0.offset + $0.type.slotOffset })
    relationshipSlotOffsets = Self.permanentBuffer(
      relationships.map { $0.offset + wrapperLayout.relationshipSlot })
    for attribute in attributes.dropFirst(inheritedAttributeCount) {
      let expected = attribute.type.attributeValueType.storageType(
        isOptional: attribute.type.isOptional)
      if expected != attribute.type.storedType {
        problems.append(
          SchemaError(
            .unsupportedType, entity: entityName, property: attribute.name,
            message:
              "type stored as \(attribute.type.storedType) cannot be an attribute (expected \(expected))"
          ))
      }
    }
    self.problems = problems
    observedKeyPaths = ObservedKeyPaths(
      modelClass: modelClass, attributeCount: attributes.count,
      relationshipCount: relationships.count)
  }

  /// Writes each wrapper's slot into `object` (an instance of this class); wrappers hold no
  /// reference to their object.
  ///
  /// - Complexity: O(properties): one store per wrapper, at an offset computed once per class.
  @inline(__always)
  func bind(_ object: ModelObject) {
    let base = Unmanaged.passUnretained(object).toOpaque()
    var slot: Int16 = 0
    for offset in attributeSlotOffsets {
      (base + offset).storeBytes(of: slot, as: Int16.self)
      slot &+= 1
    }
    var relationshipSlot: Int32 = 0
    for offset in relationshipSlotOffsets {
      (base + offset).storeBytes(of: relationshipSlot, as: Int32.self)
      relationshipSlot &+= 1
    }
  }

  deinit {
    // Only an info that lost the race to register its class is freed (a registered one lives
    // as long as the process): give back its offsets.
    UnsafeMutableBufferPointer(mutating: attributeSlotOffsets).deallocate()
    UnsafeMutableBufferPointer(mutating: relationshipSlotOffsets).deallocate()
  }

  /// A copy of `values`, freed with the info (a registered info never is).
  private static func permanentBuffer(_ values: [Int]) -> UnsafeBufferPointer<Int> {
    let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: values.count)
    _ = buffer.initialize(from: values)
    return UnsafeBufferPointer(buffer)
  }

  /// Marks attribute `slot` of `object` as never set (reads stop with the property's name) or
  /// as set (reads go to the object's row): the wrapper's slot field holds the slot's
  /// complement while unset.
  func markUnset(_ slot: Int, of object: ModelObject, _ isUnset: Bool) {
    let bits = Int16(truncatingIfNeeded: slot)
    (Unmanaged.passUnretained(object).toOpaque() + attributeSlotOffsets[slot]).storeBytes(
      of: isUnset ? ~bits : bits, as: Int16.self)
  }

  /// The name of attribute `slot`.
  func attributeName(_ slot: Int) -> String { attributeWrappers[slot].name }

  /// The name of relationship `slot`.
  func relationshipName(_ slot: Int) -> String { relationshipWrappers[slot].name }

  /// Moves the value of attribute `slot` of `object` (which has no row) from its wrapper into
  /// `row` of `column`.
  ///
  /// - Returns: `false` when the wrapper held no value.
  func moveValue(of object: ModelObject, slot: Int, into column: AnyColumn, row: Int) -> Bool {
    let field = attributeWrappers[slot]
    return field.valueType._moveStored(
      from: address(of: slot, in: object) + field.valueOffset, into: column, row: row)
  }

  /// Puts `stored` back into attribute `slot`'s wrapper in `object` (which left its row).
  func restoreValue(_ stored: any ColumnValue, of object: ModelObject, slot: Int) {
    attributeWrappers[slot].type.restoreValue(stored, at: address(of: slot, in: object))
  }

  /// The address of attribute `slot`'s wrapper inside `object`.
  func address(of slot: Int, in object: ModelObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque() + attributeWrappers[slot].offset
  }
}

/// A small table of recently used class infos that any thread reads without a lock: 64 places,
/// each an atomic word holding an info (unretained: infos are never released), placed by a hash
/// of the class. A reader loads its class's place and checks that the info there is its class's;
/// a miss (an empty place, or another class's info) goes to the thread-local cache and then puts
/// its info in the place. Infos are stored with release and loaded with acquire ordering, so a
/// reader sees an info's fields as written before it was stored.
final class ClassInfoSlots: @unchecked Sendable {
  // @unchecked Sendable: the places are atomics, allocated and initialized once in `init`.

  /// The number of places.
  static let count = 64

  private let places: UnsafeMutablePointer<Atomic<UInt>>

  /// An empty table.
  init() {
    places = .allocate(capacity: Self.count)
    for index in 0..<Self.count { (places + index).initialize(to: Atomic(0)) }
  }

  deinit {
    places.deinitialize(count: Self.count)
    places.deallocate()
  }

  @inline(__always)
  private static func place(of modelClass: ModelObject.Type) -> Int {
    let bits = UInt64(UInt(bitPattern: ObjectIdentifier(modelClass)))
    return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// The info of `modelClass` if it is in its place.
  ///
  /// - Complexity: O(1): one atomic load and a comparison.
  @inline(__always)
  func info(for modelClass: ModelObject.Type) -> Unmanaged<ModelClassInfo>? {
    let bits = places[Self.place(of: modelClass)].load(ordering: .acquiring)
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    let info = Unmanaged<ModelClassInfo>.fromOpaque(pointer)
    guard
      info._withUnsafeGuaranteedRef({
        ObjectIdentifier($0.modelClass) == ObjectIdentifier(modelClass)
      })
    else { return nil }
    return info
  }

  /// Puts `info` (of `modelClass`, never released) in its class's place.
  func remember(_ info: Unmanaged<ModelClassInfo>, for modelClass: ModelObject.Type) {
    places[Self.place(of: modelClass)].store(
      UInt(bitPattern: info.toOpaque()), ordering: .releasing)
  }
}

private func fieldCount(of type: AnyClass) -> Int {
  var count = 0
  _ = _forEachField(of: type, options: classFieldOptions) { _, _, _, _ in
    count += 1
    return true
  }
  return count
}

private func != (lhs: any ColumnValue.Type, rhs: any ColumnValue.Type) -> Bool {
  ObjectIdentifier(lhs) != ObjectIdentifier(rhs)
}

/// `_EachFieldOptions.classType` (bit 0), spelled out because the standard library declares
/// the option as a mutable static.
private let classFieldOptions = _EachFieldOptions(rawValue: 1 << 0)
