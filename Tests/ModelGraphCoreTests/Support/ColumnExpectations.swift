import Testing

@testable import ModelGraphCore

/// Expects `column` to hold exactly `model`: as many rows, and the same value in each (the
/// rows that differ are counted, so a wrong column is one issue, not one per row).
func expectColumn<Value: ColumnValue>(
  _ column: Column<Value>, holds model: [Value], _ label: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(column.count == model.count, "\(label)", sourceLocation: sourceLocation)
  var mismatches = 0
  for row in 0..<model.count where column[row] != model[row] { mismatches += 1 }
  #expect(mismatches == 0, "\(label)", sourceLocation: sourceLocation)
}
