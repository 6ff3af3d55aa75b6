import ModelGraphCore

/// Rows of values under named columns: what a fetch or an aggregate prints.
struct ResultSet {
  /// The column names.
  var columns: [String]
  /// The rows; `nil` for a column the row's class does not have.
  var rows: [[ModelValue?]]
  /// What a row is, for the table footer: singular and plural (`object`, `objects`).
  var noun: (String, String)

  /// The rows printed in `mode`, newline-terminated; `headers: false` leaves out the column
  /// names of tables and CSV.
  func render(_ mode: OutputMode, headers: Bool = true) -> String {
    switch mode {
    case .table: TableFormat.render(self, headers: headers)
    case .json: JSONFormat.render(self)
    case .csv: CSVFormat.render(self, headers: headers)
    }
  }
}

/// Plain text for a value: strings unquoted, dates in ISO 8601, `nil` for no value.
func plainText(_ value: ModelValue) -> String {
  switch value {
  case .string(let text): text
  case .date(let date): DateLiteral.format(date)
  case .array(let values): "[" + values.map(plainText).joined(separator: ", ") + "]"
  case .data(let data): data.base64EncodedString()
  default: value.description
  }
}
