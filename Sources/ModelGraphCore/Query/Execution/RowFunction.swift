/// A column read directly: the tested object's own attribute, optional or not.
enum DirectColumn<Value: ColumnValue> {
  /// A non-optional attribute.
  case plain(Column<Value>)
  /// An optional attribute.
  case optional(Column<Value?>)
}

/// A value computed for each row of the table being scanned; `nil` where Swift's would be `nil`.
///
/// Built once per query and table, in generic code specialized for `Value`, so evaluating it
/// reads columns unboxed.
struct RowFunction<Value: ColumnValue> {
  /// The value for a row.
  let evaluate: (Int) -> Value?
  /// The value, when it is the same for every row (`.some(nil)` for a `nil` constant).
  let constant: Value??
  /// The column read, when the value is an attribute of the tested object.
  let column: DirectColumn<Value>?

  /// A value computed by `evaluate`.
  init(_ evaluate: @escaping (Int) -> Value?) {
    self.evaluate = evaluate
    self.constant = nil
    self.column = nil
  }

  /// A constant.
  init(constant: Value?) {
    self.evaluate = { _ in constant }
    self.constant = .some(constant)
    self.column = nil
  }

  /// A non-optional attribute of the tested object.
  init(column: Column<Value>) {
    self.evaluate = { column[$0] }
    self.constant = nil
    self.column = .plain(column)
  }

  /// An optional attribute of the tested object.
  init(optionalColumn column: Column<Value?>) {
    self.evaluate = { column[$0] }
    self.constant = nil
    self.column = .optional(column)
  }

  /// The same value, `nil` on rows where `gate` is false (it runs first, so it may bind a
  /// variable the value reads).
  func gated(by gate: @escaping (Int) -> Bool) -> RowFunction {
    let evaluate = evaluate
    return RowFunction { gate($0) ? evaluate($0) : nil }
  }
}
