import Dispatch
import SecCrypto
import SecCurl
import SecIO
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The process's sender of pin-failure reports: the rate limit (one report per host, port, pin set
/// and failure every 10 minutes) and the POSTs, each on a thread of its own, never on the
/// handshake's.
package final class PinFailureReporter: Sendable {
    /// The one reporter of the process: the rate limit holds across every client and configuration.
    package static let shared = PinFailureReporter()

    /// How long a failure is not reported again.
    package static let interval: Duration = .seconds(600)

    /// What makes two failures the same one.
    private struct Key: Hashable {
        let host: String
        let port: Int
        let pinSet: PinSet
        let uri: String
        /// The validated chain's public-key pins: another chain is another failure.
        let chainPins: [PublicKeyPin]
    }

    /// When each failure was last reported.
    private let sentAt = Mutex<[Key: ContinuousClock.Instant]>([:])
    /// The POSTs under way.
    private let pending = DispatchGroup()

    /// Sends `evaluation`'s failure report to the policy's `reportURI` in the background, unless
    /// the same failure was reported in the last 10 minutes. Returns at once; the outcome of the
    /// POST is not seen by the caller. Nothing is sent without a `reportURI`, for a match, without
    /// an applying pin set, or for an expired pin set (its pins are no longer known pins).
    ///
    /// - Parameters:
    ///   - evaluation: the pin evaluation of the connection.
    ///   - policy: the policy the evaluation applied (its `reportURI`).
    ///   - port: the TCP port connected to.
    ///   - servedChain: the certificates the server sent, read only when a report is sent.
    package func report(
        _ evaluation: PinEvaluation,
        policy: PinPolicy,
        port: Int,
        servedChain: () -> [X509Certificate]
    ) {
        guard let uri = policy.reportURI, evaluation.outcome == .mismatched, let pinSet = evaluation.pinSet else {
            return
        }
        let now = Date()
        guard !pinSet.isExpired(at: now) else { return }
        let key = Key(
            host: evaluation.host,
            port: port,
            pinSet: pinSet,
            uri: uri.url,
            chainPins: evaluation.chainPins
        )
        let clock = ContinuousClock.now
        let due = sentAt.withLock { sentAt in
            sentAt = sentAt.filter { clock - $0.value < Self.interval }
            guard sentAt[key] == nil else { return false }
            sentAt[key] = clock
            return true
        }
        guard due, let report = PinFailureReport(evaluation, port: port, servedChain: servedChain(), at: now) else {
            return
        }
        let post = HTTPPost(
            url: uri.url,
            body: report.json(),
            headers: ["Content-Type: application/json", "Expect:"],
            timeout: uri.timeout,
            caFile: uri.caFile
        )
        pending.enter()
        do throws(NativeThread.StartFailure) {
            let thread = try NativeThread.start { [pending] in
                // A failed report is dropped: reports are best effort (RFC 7469 section 3).
                _ = try? post.send()
                pending.leave()
            }
            pthread_detach(thread)
        } catch {
            pending.leave()
        }
    }

    /// Waits until every report started has been sent or has failed, or until `timeout` passes.
    ///
    /// - Parameter timeout: the longest to wait.
    /// - Returns: true when no report is pending any more.
    package func waitForPendingReports(timeout: Duration) -> Bool {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return pending.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }
}
