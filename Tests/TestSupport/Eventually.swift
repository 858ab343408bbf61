import Testing

/// Polls `condition` until it holds, for at most 10 s (scaled); records an issue when it never does.
public func eventually(_ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10 * ProcessRunner.timeoutScale)
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold in time")
            return
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
