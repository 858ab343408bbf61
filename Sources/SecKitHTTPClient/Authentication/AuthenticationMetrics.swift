import Metrics
import NIOCore

/// The metrics `HTTPAuthenticator` reports to the swift-metrics backend the application
/// bootstrapped. Labels have few values, none taken from a server: the method, the outcome and
/// the operation.
struct AuthenticationMetrics: Sendable {
    let factory: any MetricsFactory

    /// The authentication method of a challenge, as the `method` label says it.
    enum Method: String {
        case basic, digest

        /// The method of an `Authorization` header, read from its first word only.
        init?(authorization: String) {
            switch authorization.prefix(while: { $0 != " " }).lowercased() {
            case "basic": self = .basic
            case "digest": self = .digest
            default: return nil
            }
        }
    }

    /// Counts a challenge of `method` with `outcome` (answered, accepted, failed).
    func challenge(_ method: Method?, outcome: String) {
        Counter(
            label: "seckit_http_auth_challenges_total",
            dimensions: [("method", method?.rawValue ?? "none"), ("outcome", outcome)],
            factory: factory
        ).increment()
    }

    /// Runs a lookup in the credential provider, counted and timed (`operation` lookup, `outcome`
    /// found, missing or error).
    func lookup<Credential>(_ call: () async throws -> Credential?) async throws -> Credential? {
        let start = NIODeadline.now()
        do {
            let credential = try await call()
            record("lookup", outcome: credential == nil ? "missing" : "found", since: start)
            return credential
        } catch {
            record("lookup", outcome: "error", since: start)
            throw error
        }
    }

    /// Runs a save to the credential provider, counted and timed (`operation` save, `outcome` saved
    /// or error).
    func save(_ call: () async throws -> Void) async throws {
        let start = NIODeadline.now()
        do {
            try await call()
            record("save", outcome: "saved", since: start)
        } catch {
            record("save", outcome: "error", since: start)
            throw error
        }
    }

    private func record(_ operation: String, outcome: String, since start: NIODeadline) {
        Counter(
            label: "seckit_credential_calls_total",
            dimensions: [("operation", operation), ("outcome", outcome)],
            factory: factory
        )
        .increment()
        Metrics.Timer(
            label: "seckit_credential_call_duration_seconds",
            dimensions: [("operation", operation)],
            factory: factory
        )
        .recordNanoseconds((NIODeadline.now() - start).nanoseconds)
    }
}
