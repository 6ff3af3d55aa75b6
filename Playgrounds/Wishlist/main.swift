// The wishlist store of a travel app, with persistence added: the first launch seeds sample data
// into a snapshot file and adds "Northern Lights"; the next launch finds it there.
//
//     swift run wishlist-playground [store-file]    (default: ./wishlist.mgs)

import Foundation
import ModelGraph

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
  FileHandle.standardError.write(Data("usage: wishlist-playground [store-file]\n".utf8))
  exit(2)
}
let url = URL(fileURLWithPath: arguments.first ?? "wishlist.mgs")

do {
  let container = try ModelContainer(
    for: Trip.self, Goal.self, configurations: ModelConfiguration(url: url))
  let steps = Steps(context: ModelContext(container))
  try steps.seedIfEmpty()
  try steps.addNorthernLights()
  try steps.completeActivities(of: "Iceland Ring Road")
  try steps.showGoals()
  try steps.showTrips()
  for text in ["", "reykjavik", "AURORA", "glacier"] { try steps.search(text) }
  try steps.remove("Barcelona Beaches")
  try steps.addDuplicate("Northern Lights")
  try container.snapshot()
  print("\nSnapshot written; run again to find \"Northern Lights\" still there.")
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
