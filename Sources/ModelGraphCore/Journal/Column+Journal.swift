import Foundation

/// Writes and reads one row's value of a column, as a snapshot column block encodes values:
/// made once per column, specialized for the common types (others cast each value).
struct RowCoder: Sendable {
  let encode: @Sendable (AnyColumn, Int, inout ByteWriter) -> Void
  let decode: @Sendable (AnyColumn, Int, inout ByteReader) throws -> Void

  /// The coders of a table's attribute columns, then its relationship columns.
  static func coders(of table: Table) -> [RowCoder] {
    (table.attributeColumns + table.relationshipColumns).map {
      $0 is KeyListColumn ? keyLists : $0.elementType.rowCoder()
    }
  }
}

extension RowCoder {
  /// The coder of columns of `T`, specialized where `T` is concrete.
  @inline(__always)
  static func typed<T: ColumnValue & SnapshotCoding>(_: T.Type) -> RowCoder {
    RowCoder(
      encode: { column, row, writer in
        unsafeDowncast(column, to: Column<T>.self)[row].encode(into: &writer)
      },
      decode: { column, row, reader in
        unsafeDowncast(column, to: Column<T>.self)[row] = try T.decode(from: &reader)
      })
  }

  /// The coder of to-many columns (``KeyListColumn``), which writes what `[ObjectKey]` would.
  static let keyLists = RowCoder(
    encode: { column, row, writer in
      unsafeDowncast(column, to: KeyListColumn.self).encodeList(at: row, into: &writer)
    },
    decode: { column, row, reader in
      try unsafeDowncast(column, to: KeyListColumn.self).decodeList(at: row, from: &reader)
    })

  /// The coder of `String` columns: writes a row's UTF-8 bytes from the column's arena, as
  /// `String` encodes itself, without making a `String`.
  static let strings = RowCoder(
    encode: { column, row, writer in
      let storage = unsafeDowncast(column, to: Column<String>.self).stringStorage
      storage.chunk(row &>> AnyColumn.chunkShift).withBytes(row & AnyColumn.chunkMask) {
        writer.append(utf8: $0)
      }
    },
    decode: typed(String.self).decode)

  /// The coder of `String?` columns: a presence byte, then the bytes as ``strings`` writes
  /// them.
  static let optionalStrings = RowCoder(
    encode: { column, row, writer in
      let storage = unsafeDowncast(column, to: Column<String?>.self).stringStorage
      let chunk = storage.chunk(row &>> AnyColumn.chunkShift)
      let offset = row & AnyColumn.chunkMask
      guard !chunk.isNil(offset) else { return writer.append(UInt8(0)) }
      writer.append(UInt8(1))
      chunk.withBytes(offset) { writer.append(utf8: $0) }
    },
    decode: typed(String?.self).decode)

  /// Coders specialized for the types model columns hold most.
  static let common: [ObjectIdentifier: RowCoder] = [
    ObjectIdentifier(String.self): strings,
    ObjectIdentifier(String?.self): optionalStrings,
    ObjectIdentifier(Int64.self): typed(Int64.self),
    ObjectIdentifier(Int64?.self): typed(Int64?.self),
    ObjectIdentifier(UInt64.self): typed(UInt64.self),
    ObjectIdentifier(Double.self): typed(Double.self),
    ObjectIdentifier(Double?.self): typed(Double?.self),
    ObjectIdentifier(Bool.self): typed(Bool.self),
    ObjectIdentifier(Date.self): typed(Date.self),
    ObjectIdentifier(Date?.self): typed(Date?.self),
    ObjectIdentifier(UUID.self): typed(UUID.self),
    ObjectIdentifier(Data.self): typed(Data.self),
    ObjectIdentifier([String].self): typed([String].self),
    ObjectIdentifier(ObjectKey?.self): typed(ObjectKey?.self),
  ]
}

extension ColumnValue {
  /// This type's coder: a specialized one for common types, else one that casts each value.
  static func rowCoder() -> RowCoder {
    if let common = RowCoder.common[ObjectIdentifier(Self.self)] { return common }
    return RowCoder(
      encode: { column, row, writer in
        column.elementType.encodeValue(of: column, row: row, into: &writer)
      },
      decode: { column, row, reader in
        try column.elementType.decodeValue(into: column, row: row, from: &reader)
      })
  }

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
