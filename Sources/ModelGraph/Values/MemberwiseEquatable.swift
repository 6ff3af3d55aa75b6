/// A `Codable` type whose `==` is the synthesized, memberwise one, so `==` on an attribute of
/// it in a `#Predicate` runs in the engine instead of in Foundation.
///
/// Swift cannot tell at run time whether a type's `==` was synthesized or written by hand (one
/// that ignores case, or leaves a field out), so the engine compares values of a struct or
/// enum by their stored JSON only when the type says so. Conform a type when its `==` and its
/// `Codable` conformance are both the synthesized ones and every stored property (every
/// associated value, for an enum) is a `String`, `Bool`, integer or `UUID`, an array, a
/// `String`- or `Int`-keyed dictionary or a single optional of such values, or another
/// `MemberwiseEquatable` type. A struct whose properties break that rule is compared by
/// Foundation anyway; an enum's associated values are taken on trust.
///
/// ```swift
/// struct Address: Codable, Equatable, MemberwiseEquatable { var street: String; var zip: Int }
/// class Customer: PersistentModel { @Attribute var address: Address }
/// let home = Address(street: "Rua Augusta", zip: 1100)
/// #Predicate<Customer> { $0.address == home }  // runs in the engine
/// ```
public protocol MemberwiseEquatable: Codable, Equatable {}
