import Testing

@Suite("Trips playground")
struct TripsPlaygroundTests {
  @Test("prints the inheritance guide's results")
  func output() throws {
    let run = try PlaygroundRun.run("trips-playground")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stderr.isEmpty)
    try ExpectedOutput.check(run.stdout, against: "trips.txt")
  }
}
