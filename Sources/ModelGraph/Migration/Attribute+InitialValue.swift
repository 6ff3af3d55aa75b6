import ModelGraphCore

/// An attribute wrapper whose declared initial value can be read without its value type.
protocol _AttributeInitialValue {
  /// The initial value of the wrapper stored at `address`, in storage form, if it has one.
  static func initialStoredValue(at address: UnsafeMutableRawPointer) -> ModelValue?
}

extension Attribute: _AttributeInitialValue {
  static func initialStoredValue(at address: UnsafeMutableRawPointer) -> ModelValue? {
    address.assumingMemoryBound(to: Self.self).pointee.value.map {
      AttributeStorage.stored($0).modelValue
    }
  }
}
