import Foundation
import Testing

/// Date arithmetic on key paths: `date ± duration`, `duration + date`, `date - date`, computed by
/// the runner on the engine's candidates; over constants it is folded so an index serves.
@Suite("Date arithmetic on key paths")
struct DateArithmeticTests {
  static let setup = """
    entity Trip { name: String; startDate: Date index; endDate: Date; flexible: Date? }
    insert Trip { name: "Short", startDate: 2026-05-01, endDate: 2026-05-03 }
    insert Trip { name: "Long", startDate: 2026-06-01, endDate: 2026-06-20, flexible: 2026-06-02 }
    insert Trip { name: "Recent", startDate: now() - 3 days, endDate: now() + 1 day }
    insert Trip { name: "Old", startDate: now() - 10 days, endDate: now() - 9 days }
    save

    """

  @Test("conditions, columns and updates compute dates from key paths")
  func keyPaths() {
    let result = InProcess.run(
      Self.setup + """
        fetch Trip.name where startDate + 3 days < endDate sort name
        fetch Trip.name where endDate - startDate > 7 days
        fetch Trip.name where startDate > now() - 7 days
        fetch Trip.name, endDate - startDate where name == "Short"
        count Trip where flexible + 1 hour > startDate
        count Trip where 2 days + startDate >= endDate
        update Trip set endDate = endDate + 1 week where name == "Short"
        fetch Trip.endDate where name == "Short"
        save
        """, path: "d")
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == """
        name
        ------
        Long
        Recent
        (2 rows)
        name
        ----
        Long
        (1 row)
        name
        ------
        Recent
        (1 row)
        name   endDate - startDate
        -----  -------------------
        Short             172800.0
        (1 row)
        1
        2
        1 object updated
        endDate
        --------------------
        2026-05-10T00:00:00Z
        (1 row)

        """)
  }

  @Test("explain: key path arithmetic is the runner's; a constant one is folded for the index")
  func explain() {
    let result = InProcess.run(
      Self.setup + """
        .explain fetch Trip where startDate + 3 days < endDate
        .explain fetch Trip where startDate > now() - 7 days
        """, path: "e")
    #expect(
      result.stdout.contains(
        "runner: tests (startDate + 259200.0) < endDate on each candidate (no engine equivalent)"))
    #expect(result.stdout.contains("Trip (4 objects): ordered(startDate) range ("))
  }

  @Test("unsupported forms are clear errors")
  func errors() {
    let result = InProcess.run(
      Self.setup + """
        count Trip where startDate * 2 > endDate
        count Trip where startDate + endDate > now()
        count Trip where startDate > now() - 1 month
        count Trip where startDate + 3 days < 5
        count Trip where startDate + "x" < endDate
        count Trip where 2 days - startDate < endDate
        """, path: "x", keepGoing: true)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(
      String.init)
    let tail = " cannot combine"
    let rule = "; a date takes + or - a number of seconds (7 days, 2 hours), and - another date"
    let expected: [String] = [
      "x:7:18: error: '*'\(tail) Date and Int\(rule)",
      "x:8:18: error: '+'\(tail) Date and Date\(rule)",
      "x:9:40: error: month is not a duration the runner takes: months and years have no fixed"
        + " number of seconds; write days or weeks (30 days, 52 weeks)",
      "x:10:39: error: type mismatch: startDate + 259200.0 is Date, 5 is Int",
      "x:11:18: error: '+'\(tail) Date and String\(rule)",
      "x:12:18: error: '-'\(tail) Double and Date\(rule)",
    ]
    #expect(errors == expected)
  }
}
