/// A committed version that readers do not see yet: its commit is still on its way to the disk.
struct PendingVersion {
  var version: StoreVersion
  /// The persistence's ticket for the commit; `nil` when it was durable once committed.
  var ticket: UInt64?
  /// The change subscribers and the history get once the version is shown.
  var change: CommittedChange?
}

extension Store {
  /// Makes `version` the newest committed version and shows it (with every version committed
  /// before it) as soon as its commit is durable; called with the store's lock held.
  func stage(
    _ version: StoreVersion, ticket: UInt64?, change: CommittedChange?, in state: inout State
  ) {
    state.version = version
    state.pending.append(PendingVersion(version: version, ticket: ticket, change: change))
    showDurable(in: &state)
  }

  /// Shows every pending version whose commit (and every commit before it) is durable, in
  /// commit order, handing their changes to the history and the subscribers.
  ///
  /// - Returns: The versions shown before and replaced: a caller holding the lock releases
  ///   them after it, so the tables only they held are not freed inside the lock.
  @discardableResult
  func showDurable(in state: inout State) -> [StoreVersion] {
    var shown = 0
    var replaced: [StoreVersion] = []
    for entry in state.pending {
      if let ticket = entry.ticket, ticket > state.durableThrough { break }
      replaced.append(state.visible)
      state.visible = entry.version
      markVisible(state.visible)
      if let change = entry.change {
        history.record(change)
        changeHub.deliver(change)
      } else {
        history.skip(entry.version.number)
      }
      shown += 1
    }
    state.pending.removeFirst(shown)
    return replaced
  }

  /// Shows the versions whose commits are durable now that the commit of `ticket` is.
  func showVersions(durableThrough ticket: UInt64) {
    let replaced = state.withLock { state in
      state.durableThrough = max(state.durableThrough, ticket)
      return showDurable(in: &state)
    }
    // Freed here, outside the lock that other saves wait for.
    withExtendedLifetime(replaced) {}
  }

  /// Returns once version `number` is shown (its commit is durable), or once its commit can no
  /// longer become durable (the persistence failed).
  ///
  /// A session that moved onto a committed version not shown yet calls this before anything of
  /// that version can reach its caller other than through its own successful save: a conflict
  /// handed to a resolver, a validation error, a failed commit.
  func waitUntilShown(_ number: UInt64) {
    let wait = state.withLock { state -> (ticket: UInt64, persistence: any StorePersistence)? in
      guard state.visible.number < number, let persistence = state.persistence else {
        return nil
      }
      let ticket = state.pending.lazy.filter { $0.version.number <= number }.compactMap(\.ticket)
        .max()
      return ticket.map { ($0, persistence) }
    }
    guard let wait else { return }
    do { try wait.persistence.waitUntilDurable(wait.ticket) } catch { return }
    showVersions(durableThrough: wait.ticket)
  }
}
