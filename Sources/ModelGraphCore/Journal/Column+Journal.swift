extension AnyColumn {
  /// Writes the value of `row` as a snapshot column block would.
  func encodeValue(at row: Int, into writer: inout ByteWriter) {
    elementType.encodeValue(of: self, row: row, into: &writer)
  }

  /// Reads one value and stores it in `row`.
  func decodeValue(at row: Int, from reader: inout ByteReader) throws {
    try elementType.decodeValue(into: self, row: row, from: &reader)
  }
}

extension ColumnValue {
  static func encodeValue(of column: AnyColumn, row: Int, into writer: inout ByteWriter) {
    let value = unsafeDowncast(column, to: Column<Self>.self)[row]
    guard let coded = value as? any SnapshotCoding else {
      preconditionFailure("\(Self.self) has no snapshot coding")
    }
    coded.encode(into: &writer)
  }

  static func decodeValue(into column: AnyColumn, row: Int, from reader: inout ByteReader) throws {
    guard let coding = Self.self as? any SnapshotCoding.Type,
      let value = try coding.decode(from: &reader) as? Self
    else { throw reader.error("\(Self.self) has no snapshot coding") }
    unsafeDowncast(column, to: Column<Self>.self)[row] = value
  }
}
