public import Foundation
import ModelGraphCore

/// `#Predicate` expressions for the string methods SwiftData code uses that Foundation on Linux
/// does not provide: `localizedStandardContains` and `caseInsensitiveCompare`.
///
/// (`hasPrefix` and `hasSuffix` are rejected by the `#Predicate` macro itself on every
/// platform; use `starts(with:)`.)
///
/// You never name these types: with ModelGraph imported, `#Predicate` builds them for calls
/// such as `$0.name.localizedStandardContains(text)`. They evaluate as the Swift and Foundation
/// methods do (see `StringMatching` in ModelGraphCore), and the engine evaluates them over columns.
///
/// > Important: `caseInsensitiveCompare` returns a `ComparisonResult`, and `#Predicate` cannot
/// > name enum cases: capture the case in a constant first,
/// > `let same = ComparisonResult.orderedSame`, then `$0.name.caseInsensitiveCompare(text) == same`.
public enum StringPredicateExpressions {
  /// `root.localizedStandardContains(other)`: ignores case and diacritics.
  public struct LocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
    PredicateExpression
  where Root.Output: StringProtocol, Other.Output: StringProtocol {
    /// `Bool`.
    public typealias Output = Bool
    /// The string searched.
    public let root: Root
    /// The string searched for.
    public let other: Other

    /// The expression.
    public init(root: Root, other: Other) {
      self.root = root
      self.other = other
    }

    /// Whether `root` contains `other`, ignoring case and diacritics.
    public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
      StringMatching.localizedStandardContains(
        String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
    }
  }

  /// `root.caseInsensitiveCompare(other)`.
  public struct CaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>:
    PredicateExpression
  where Root.Output: StringProtocol, Other.Output: StringProtocol {
    /// `ComparisonResult`.
    public typealias Output = ComparisonResult
    /// The first string.
    public let root: Root
    /// The second string.
    public let other: Other

    /// The expression.
    public init(root: Root, other: Other) {
      self.root = root
      self.other = other
    }

    /// The order of the strings, ignoring case.
    public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
      let result = StringMatching.caseInsensitiveCompare(
        String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
      return ComparisonResult(rawValue: result) ?? .orderedSame
    }
  }
}

extension StringPredicateExpressions.LocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension StringPredicateExpressions.CaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension StringPredicateExpressions.LocalizedStandardContains: Sendable
where Root: Sendable, Other: Sendable {}
extension StringPredicateExpressions.CaseInsensitiveCompare: Sendable
where Root: Sendable, Other: Sendable {}

extension StringPredicateExpressions.LocalizedStandardContains: Codable
where Root: Codable, Other: Codable {}
extension StringPredicateExpressions.CaseInsensitiveCompare: Codable
where Root: Codable, Other: Codable {}

#if !canImport(Darwin)
  // Foundation on Darwin builds these calls itself; on Linux it has no builder for them.
  extension PredicateExpressions {
    /// Builds `localizedStandardContains` for `#Predicate` (Linux only).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The `#Predicate` macro calls builders by this exact name.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
      -> StringPredicateExpressions.LocalizedStandardContains<Root, Other>
    {
      StringPredicateExpressions.LocalizedStandardContains(root: root, other: other)
    }

    /// Builds `caseInsensitiveCompare` for `#Predicate` (Linux only).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The `#Predicate` macro calls builders by this exact name.
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other)
      -> StringPredicateExpressions.CaseInsensitiveCompare<Root, Other>
    {
      StringPredicateExpressions.CaseInsensitiveCompare(root: root, other: other)
    }
  }
#endif
