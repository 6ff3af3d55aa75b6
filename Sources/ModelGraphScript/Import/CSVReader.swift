/// Reads CSV (RFC 4180): fields separated by commas, quoted with `"` when they hold a comma,
/// quote or line break, `""` for a quote inside; records end at `\n` or `\r\n`.
enum CSVReader {
  /// One record: its fields (`nil` for an empty unquoted field) and the line it starts on.
  struct Record: Equatable {
    /// The fields; a quoted empty field is `""`, an unquoted one `nil`.
    var fields: [String?]
    /// The line the record starts on, from 1.
    var line: Int
  }

  /// The records of `text`; blank lines are skipped.
  ///
  /// - Throws: ``CSVError`` for a quote left open or text after a closing quote.
  static func records(_ text: String) throws -> [Record] {
    var records: [Record] = []
    var fields: [String?] = []
    var field = ""
    var isQuoted = false
    var inQuotes = false
    var afterQuote = false
    var line = 1
    var start = 1
    func endField() {
      fields.append(field.isEmpty && !isQuoted ? nil : field)
      field = ""
      isQuoted = false
      afterQuote = false
    }
    func endRecord() {
      endField()
      if fields.count > 1 || fields.first! != nil {
        records.append(Record(fields: fields, line: start))
      }
      fields = []
    }
    var characters = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? characters.next() {
      pending = nil
      if inQuotes {
        if scalar == "\"" {
          let next = characters.next()
          if next == "\"" {
            field.unicodeScalars.append("\"")
          } else {
            inQuotes = false
            afterQuote = true
            pending = next
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case ",":
        endField()
      case "\r":
        continue
      case "\n":
        endRecord()
        line += 1
        start = line
      case "\"" where field.isEmpty && !afterQuote:
        inQuotes = true
        isQuoted = true
      default:
        if afterQuote {
          throw CSVError(message: "text after a closing quote", line: line)
        }
        field.unicodeScalars.append(scalar)
      }
    }
    if inQuotes { throw CSVError(message: "a quoted field is not closed", line: start) }
    endRecord()
    return records
  }
}

/// CSV that cannot be read, and the line where.
struct CSVError: Error, Equatable {
  /// What is wrong.
  var message: String
  /// The line, from 1.
  var line: Int
}
