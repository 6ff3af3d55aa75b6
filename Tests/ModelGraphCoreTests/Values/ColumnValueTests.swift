import Foundation
import Testing

@testable import ModelGraphCore

@Suite("ColumnValue and ModelValue conversions")
struct ColumnValueTests {
  @Test("integers convert between signed and unsigned only when they fit")
  func integers() {
    #expect(Int64(modelValue: .uint(5)) == 5)
    #expect(Int64(modelValue: .uint(.max)) == nil)
    #expect(UInt64(modelValue: .int(-1)) == nil)
    #expect(UInt64(modelValue: .int(7)) == 7)
    #expect(UInt32(modelValue: .uint(UInt64(UInt32.max) + 1)) == nil)
    #expect(Int64(modelValue: .string("1")) == nil)
  }

  @Test("doubles and decimals accept integers")
  func widening() {
    #expect(Double(modelValue: .int(-3)) == -3)
    #expect(Double(modelValue: .uint(4)) == 4)
    #expect(Decimal(modelValue: .int(12)) == 12)
    #expect(Double(modelValue: .string("x")) == nil)
  }

  @Test("optionals map null to nil and reject other types")
  func optionals() {
    #expect(String?(modelValue: .null) == .some(nil))
    #expect(String?(modelValue: .string("a")) == .some("a"))
    #expect(String?(modelValue: .int(1)) == nil)
    #expect((nil as Int64?).modelValue == .null)
  }

  @Test("arrays convert element by element and reject a bad element")
  func arrays() {
    #expect([Int64](modelValue: .array([.int(1), .uint(2)])) == [1, 2])
    #expect([Int64](modelValue: .array([.int(1), .string("x")])) == nil)
    #expect([String](modelValue: .string("x")) == nil)
    #expect(["a", "b"].modelValue == .array([.string("a"), .string("b")]))
  }

  @Test("an ObjectKey round-trips through its boxed form; the placeholder is never live")
  func objectKeys() throws {
    let key = ObjectKey(entity: 2, row: 4097, generation: 3)
    #expect(ObjectKey(modelValue: key.modelValue) == key)
    #expect(ObjectKey(modelValue: .array([.uint(1)])) == nil)
    #expect(key.description == "2:4097.3")
    #expect(ObjectKey(entity: 1, row: 9, generation: 9) < key)
    let store = try Fixture.makeStore()
    #expect(!Session(store: store).contains(.placeholder))
  }

  @Test("storage types follow the value type and optionality")
  func storageTypes() {
    #expect(ObjectIdentifier(ValueType.int.storageType) == ObjectIdentifier(Int64.self))
    #expect(ObjectIdentifier(ValueType.uint.storageType) == ObjectIdentifier(UInt64.self))
    #expect(
      ObjectIdentifier(ValueType.composite("Address").storageType) == ObjectIdentifier(Data.self))
    #expect(
      ObjectIdentifier(ValueType.array(.string).storageType) == ObjectIdentifier([String].self))
    #expect(
      ObjectIdentifier(ValueType.array(.array(.bool)).storageType)
        == ObjectIdentifier([[Bool]].self))
    #expect(
      ObjectIdentifier(ValueType.date.storageType(isOptional: true)) == ObjectIdentifier(Date?.self)
    )
    #expect(ValueType.array(.int).description == "[Int]")
  }

  @Test("a PersistentIdentifier is Codable, ordered and printable")
  func identifiers() throws {
    let id = PersistentIdentifier(entityName: "Trip", row: 3, generation: 1)
    let decoded = try JSONDecoder().decode(
      PersistentIdentifier.self, from: try JSONEncoder().encode(id))
    #expect(decoded == id)
    #expect(id.description == "Trip/3.1")
    #expect(PersistentIdentifier(entityName: "Trip", row: 3, generation: 0) < id)
    #expect(id != PersistentIdentifier(entityName: "Trip", row: 3, generation: 2))
  }
}
