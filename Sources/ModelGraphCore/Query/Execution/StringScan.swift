/// Conditions that test each row of a string column against a constant needle over the rows'
/// UTF-8 bytes (``StringColumnStorage``), chunk by chunk, without decoding a `String` for rows
/// and needles that are simple ASCII.
enum StringScan {
  /// `op` of each row of `column` (a `String` or `String?` column) against `pattern`; `nil`
  /// rows never match. `nil` when the column does not keep UTF-8.
  static func make<Value: ColumnValue>(
    _ column: Column<Value>, _ pattern: StringPattern, _ op: QueryStringOperator
  ) -> CompiledCondition? {
    guard let strings = column.strings else { return nil }
    @inline(__always) func matches(_ chunk: StringChunk, _ offset: Int) -> Bool {
      !chunk.isNil(offset) && pattern.matches(chunk, row: offset, op)
    }
    return CompiledCondition(
      test: { row in
        matches(strings.chunk(row &>> AnyColumn.chunkShift), row & AnyColumn.chunkMask)
      },
      refine: { selection in
        let chunk = strings.chunk(selection.chunkStart &>> AnyColumn.chunkShift)
        selection.keep { matches(chunk, $0) }
      },
      countChunk: { index, stamps in
        let chunk = strings.chunk(index)
        var count = 0
        for offset in 0..<stamps.count where stamps[offset] & 1 != 0 && matches(chunk, offset) {
          count &+= 1
        }
        return count
      })
  }

  /// `column == constant` (`K` is ``EqualKernel``) or `!=` (``NotEqualKernel``) for a `String`
  /// or `String?` column, with Swift's `Optional` equality; bytes decide when the constant and
  /// the row are simple ASCII, `String`'s `==` (canonical equivalence) otherwise. `nil` when
  /// the column does not keep UTF-8.
  static func equality<T: ColumnValue, K: EqualityKernel>(
    _ column: DirectColumn<T>, _ constant: T?, _: K.Type
  ) -> CompiledCondition? {
    let strings: StringColumnStorage?
    switch column {
    case .plain(let column): strings = column.strings
    case .optional(let column): strings = column.strings
    }
    guard T.self == String.self, let strings else { return nil }
    let needle = constant.map { unsafeBitCast($0, to: String.self) }
    let wantsEqual = K.matches(0, 0)
    let pattern = needle.map(StringPattern.init)
    @inline(__always) func matches(_ chunk: StringChunk, _ offset: Int) -> Bool {
      let equal: Bool
      if chunk.isNil(offset) {
        equal = needle == nil
      } else if let pattern {
        equal = pattern.equals(chunk, row: offset)
      } else {
        equal = false
      }
      return equal == wantsEqual
    }
    return CompiledCondition(
      test: { row in
        matches(strings.chunk(row &>> AnyColumn.chunkShift), row & AnyColumn.chunkMask)
      },
      refine: { selection in
        let chunk = strings.chunk(selection.chunkStart &>> AnyColumn.chunkShift)
        selection.keep { matches(chunk, $0) }
      })
  }
}
