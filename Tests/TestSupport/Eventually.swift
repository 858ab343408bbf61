import Testing

/// Polls `condition` until it holds, for at most `seconds` (10 by default, scaled); records an
/// issue when it never does. Give a condition that needs async work of the test's own (a request
/// of an async client) minutes: in the whole parallel run the cooperative pool is held by blocking
/// tests for that long.
public func eventually(within seconds: Int = 10, _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds * ProcessRunner.timeoutScale)
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold in time")
            return
        }
        try await Task.sleep(for: .milliseconds(50))
    }
}
