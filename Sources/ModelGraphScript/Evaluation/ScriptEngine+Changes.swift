import ModelGraphCore

/// A query `.watch` reprints when a save changes its results.
struct WatchedQuery {
  /// The watch's number, from 1, as `.watch` lists it.
  let number: Int
  let query: QueryStatement
  /// What the query printed last.
  var lastOutput: String
}

extension ScriptEngine {
  /// `.changes [since VERSION]`: the store's kept history after `VERSION`, or after what the
  /// last `.changes` showed, one row per inserted, updated or deleted object.
  func changes(_ arguments: String, at location: SourceLocation) throws {
    let words = try DotArguments.split(arguments, at: location)
    var after = changesShown
    switch words.count {
    case 0: break
    case 2 where words[0].lowercased() == "since":
      guard let version = UInt64(words[1]) else {
        throw ScriptError(".changes since takes a version number, not '\(words[1])'", at: location)
      }
      after = version
    default:
      throw ScriptError(".changes takes nothing or since VERSION", at: location)
    }
    let history = store.history
    let dropped = history.droppedThrough
    if dropped > after {
      output("-- the history no longer keeps the changes through version \(dropped)\n")
    }
    var rows: [[ModelValue?]] = []
    for change in history.changes(after: after) {
      let head: [ModelValue?] = [.int(Int64(change.version)), change.author.map(ModelValue.string)]
      for identifier in change.inserted {
        rows.append(head + [.string("insert"), .string(text(identifier)), nil])
      }
      for update in change.updated {
        var written = update.attributes.sorted()
        if update.relationshipsChanged { written.append("(relationships)") }
        rows.append(
          head + [
            .string("update"), .string(text(update.identifier)),
            .string(written.joined(separator: ", ")),
          ])
      }
      for deletion in change.deleted {
        let preserved = deletion.preservedValues.sorted { $0.key < $1.key }
          .map { "\($0.key)=\(plainText($0.value))" }
        rows.append(
          head + [
            .string("delete"), .string(text(deletion.identifier)),
            preserved.isEmpty ? nil : .string(preserved.joined(separator: ", ")),
          ])
      }
    }
    changesShown = max(after, store.version.number)
    emit(
      ResultSet(
        columns: ["version", "author", "change", "object", "attributes"], rows: rows,
        noun: ("change", "changes")))
  }

  /// `.watch fetch …`: prints the results and keeps the query to print again.
  func watch(_ query: QueryStatement) throws {
    let text = try watchedOutput(query)
    let number = (watches.last?.number ?? 0) + 1
    watches.append(WatchedQuery(number: number, query: query, lastOutput: text))
    watchedVersion = store.version.number
    output("watch \(number):\n" + text)
  }

  /// `.watch` alone lists the watches; `.watch off` ends them.
  func watchCommand(_ arguments: String, at location: SourceLocation) throws {
    switch arguments.lowercased() {
    case "":
      output(
        watches.isEmpty
          ? "no watches\n"
          : watches.map { "watch \($0.number): fetch \($0.query.entity)\n" }.joined())
    case "off":
      watches = []
    default:
      throw ScriptError(".watch takes fetch …, off, or nothing (to list)", at: location)
    }
  }

  /// After a statement, prints again each watched query whose results a save since changed.
  func reprintWatches(after statement: Statement) throws {
    guard !watches.isEmpty, store.version.number != watchedVersion else { return }
    watchedVersion = store.version.number
    var ended: Set<Int> = []
    for index in watches.indices {
      let watch = watches[index]
      do {
        let text = try watchedOutput(watch.query)
        guard text != watch.lastOutput else { continue }
        watches[index].lastOutput = text
        output("watch \(watch.number) changed:\n" + text)
      } catch {
        ended.insert(watch.number)
        let message = (error as? ScriptError)?.message ?? "\(error)"
        output("watch \(watch.number) ended: \(message)\n")
      }
    }
    watches.removeAll { ended.contains($0.number) }
  }

  /// What a fetch of `query` prints now.
  private func watchedOutput(_ query: QueryStatement) throws -> String {
    let entity = try self.entity(query.entity, at: query.entityLocation)
    let keys = try keys(query)
    let result =
      query.columns.isEmpty
      ? try objectRows(keys, of: entity, prefetch: query.prefetch.map(\.name))
      : try projection(query, of: entity, keys: keys)
    return result.render(mode, headers: showsHeaders)
  }

  private func text(_ identifier: PersistentIdentifier) -> String {
    "\(identifier.entityName)/\(identifier.row).\(identifier.generation)"
  }
}
