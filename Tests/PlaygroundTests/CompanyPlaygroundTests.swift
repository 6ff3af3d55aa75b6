import Testing

@Suite("Company playground")
struct CompanyPlaygroundTests {
  @Test("prints the relationships guide's results")
  func output() throws {
    let run = try PlaygroundRun.run("company-playground")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stderr.isEmpty)
    try ExpectedOutput.check(run.stdout, against: "company.txt")
  }
}
