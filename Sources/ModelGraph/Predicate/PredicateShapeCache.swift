import ModelGraphCore

/// The translations of the predicate shapes a context met, with a slot for each captured
/// value: a fetch whose predicate has a known ``PredicateShape`` converts its captured values
/// and fills the slots, without translating the tree again.
///
/// A shape is kept only when its translation is proven to take the captured values as they
/// are: the predicate translated with slots must list the walk's values, of the same types in
/// the same order, and filled with this fetch's values it must equal the plain translation.
/// Shapes with a part the engine cannot evaluate, or a class named in a cast or type test, are
/// translated on every fetch. The translation does not depend on the store's contents, schema
/// or indexes (the planner's own cache checks those). At most ``capacity`` shapes are kept;
/// the oldest goes first. Not `Sendable`: it belongs to its context.
final class PredicateShapeCache {
  /// The most shapes kept.
  static let capacity = 64

  /// A shape's translation (a class: a fetch memo holds it without copying its lists).
  final class Entry {
    /// The shape.
    let shape: PredicateShape
    /// The translation with slots, or `nil` for a shape translated on every fetch.
    let template: QueryExpression?
    /// The conversion of each slot's value.
    let converters: [ConstantConversion.Entry]
    /// The template's number, for the plan cache's key (``QueryShapeIdentity``).
    let number: Int

    init(
      shape: PredicateShape, template: QueryExpression?, converters: [ConstantConversion.Entry],
      number: Int
    ) {
      self.shape = shape
      self.template = template
      self.converters = converters
      self.number = number
    }
  }

  private var entries: [PredicateShape: Entry] = [:]
  /// The shapes kept and their entries, by the type of their root node: a fetch finds the few
  /// shapes its tree's type allows and checks its tree against each (``match(_:context:)``),
  /// without listing its tokens or hashing them.
  private var byRoot: [ObjectIdentifier: [(shape: PredicateShape, entry: Entry)]] = [:]
  private var order: [PredicateShape] = []
  /// How many fetches took their translation from the cache, and how many shapes were learnt
  /// (for tests).
  private(set) var hits = 0
  private(set) var learnt = 0

  /// The number of shapes kept.
  var count: Int { entries.count }

  /// Counts a fetch that took its translation from a shape kept here without asking the
  /// cache (a fetch memo's entry holds the shape's ``Entry``).
  func countHit() { hits += 1 }

  /// What the cache knows of a predicate's shape.
  enum Match {
    /// The shape is kept: its translation with a slot for each captured value, the values
    /// converted, and the identity of its shape for the plan cache.
    case found(
      template: QueryExpression, values: [QueryExpression], identity: QueryShapeIdentity?,
      entry: Entry)
    /// The shape is translated on every fetch (it named a class or left a part untranslated).
    case refused
    /// The shape was not met, or a value did not convert: the caller translates (and learns).
    case unknown
  }

  /// What the cache knows of `predicate`'s shape, found by its root node's type and a walk
  /// that checks its tree against each shape kept for that type (key paths, operators and
  /// variable bindings; the type fixes the rest) while converting its captured values.
  func match<T>(_ predicate: Predicate<T>, context: ModelContext) -> Match {
    guard let candidates = byRoot[ObjectIdentifier(type(of: predicate.expression))] else {
      return .unknown
    }
    for (shape, entry) in candidates {
      guard let template = entry.template else {
        if PredicateShapeWalker.match(
          predicate, shape: shape, converters: nil, context: context, plain: plainTranslator)
          != nil
        {
          return .refused
        }
        continue
      }
      guard
        let values = PredicateShapeWalker.match(
          predicate, shape: shape, converters: entry.converters, context: context,
          plain: plainTranslator)
      else { continue }
      hits += 1
      return .found(
        template: template, values: values,
        identity: QueryShapeIdentity(template: entry.number, values: values), entry: entry)
    }
    return .unknown
  }

  /// Learns the shape of `predicate`, whose plain translation is `translation` and whose walk
  /// is `walker`, if it was not met before.
  ///
  /// - Returns: The identity of the translation's shape and its template with slots, when the
  ///   shape is kept for reuse (so this fetch's plan is found again by the next fetch of the
  ///   shape).
  @discardableResult
  func learn<T>(
    _ predicate: Predicate<T>, walker: PredicateShapeWalker, translation: QueryExpression,
    context: ModelContext
  ) -> (identity: QueryShapeIdentity, template: QueryExpression)? {
    guard entries[walker.shape] == nil else { return nil }
    let entry = entry(predicate, walker, translation, context)
    store(entry)
    guard let template = entry.template,
      let values = convert(walker.values, entry.converters, context),
      let identity = QueryShapeIdentity(template: entry.number, values: values)
    else { return nil }
    return (identity, template)
  }

  /// Forgets a shape as not reusable (its predicate named a class, or left a part untranslated).
  func refuse(_ walker: PredicateShapeWalker) {
    guard entries[walker.shape] == nil else { return }
    store(Entry(shape: walker.shape, template: nil, converters: [], number: 0))
  }

  private func entry<T>(
    _ predicate: Predicate<T>, _ walker: PredicateShapeWalker, _ translation: QueryExpression,
    _ context: ModelContext
  ) -> Entry {
    let refused = Entry(shape: walker.shape, template: nil, converters: [], number: 0)
    let recorder = PredicateTranslator(context: context, recordsSlots: true) { _ in
      throw Untranslatable("a class named in the predicate")
    }
    let (template, untranslated) = recorder.translate(predicate)
    guard untranslated.isEmpty, let template, let types = recorder.slotTypes,
      types.count == walker.valueTypes.count,
      zip(types, walker.valueTypes).allSatisfy({ $0 == $1 })
    else { return refused }
    let converters = types.map(ConstantConversion.entry(for:))
    guard let values = convert(walker.values, converters, context),
      template.fillingSlots(values) == translation
    else { return refused }
    return Entry(
      shape: walker.shape, template: template, converters: converters,
      number: QueryShapeIdentity.newTemplate())
  }

  /// The captured `values` converted, or `nil` when one has no engine equivalent.
  private func convert(
    _ values: [Any], _ converters: [ConstantConversion.Entry], _ context: ModelContext
  ) -> [QueryExpression]? {
    var translator: PredicateTranslator?
    var converted: [QueryExpression] = []
    converted.reserveCapacity(values.count)
    for (value, converter) in zip(values, converters) {
      if converter.needsTranslator && translator == nil {
        translator = PredicateTranslator(context: context) { _ in
          throw Untranslatable("a class named in the predicate")
        }
      }
      // A converter that reads its translator gets one of `context`.
      guard let expression = try? converter.convert(value, translator ?? plainTranslator)
      else { return nil }
      converted.append(expression)
    }
    return converted
  }

  /// The translator passed to converters that do not read it (it holds no context, so the
  /// cache holds no reference to its context).
  let plainTranslator = PredicateTranslator(context: nil) { _ in
    throw Untranslatable("a class named in the predicate")
  }

  private func store(_ entry: Entry) {
    let shape = entry.shape
    if entry.template != nil { learnt += 1 }
    guard let root = shape.root else { return }
    if entries.updateValue(entry, forKey: shape) == nil {
      byRoot[root, default: []].append((shape, entry))
      order.append(shape)
      if order.count > Self.capacity {
        forget(order.removeFirst())
      }
    } else if let position = byRoot[root]?.firstIndex(where: { $0.shape == shape }) {
      byRoot[root]![position].entry = entry
    }
  }

  private func forget(_ shape: PredicateShape) {
    entries[shape] = nil
    guard let root = shape.root else { return }
    byRoot[root]?.removeAll { $0.shape == shape }
    if byRoot[root]?.isEmpty == true { byRoot[root] = nil }
  }
}
