import Foundation
import ModelGraphCore

/// CSV with RFC 4180 quoting and newline line ends: a header line, fields quoted when they
/// hold a comma, quote or line break;
/// `nil` is an empty field.
enum CSVFormat {
  static func render(_ result: ResultSet, headers: Bool = true) -> String {
    var text = headers ? result.columns.map(field).joined(separator: ",") + "\n" : ""
    for row in result.rows {
      text +=
        row.map { value in
          guard let value, !value.isNull else { return "" }
          return field(plainText(value))
        }.joined(separator: ",") + "\n"
    }
    return text
  }

  private static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
