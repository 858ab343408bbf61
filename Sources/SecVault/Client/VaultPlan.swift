import SecCrypto
import SecKeychain

/// The protocol core's decisions without its I/O: what to do next, and what to do with the
/// answer. `VaultClient` and `VaultStore` build their calls as plans (one request, then a
/// continuation that reads the answer and returns the next step), and two thin drivers carry them
/// out: `VaultClient.run(_:until:)` blocks on a `VaultTransport` (libcurl, for seccli), and
/// `VaultClient.run(_:until:over:)` awaits an `AsyncVaultTransport` (AsyncHTTPClient, for
/// services), with `Task.sleep` for the back-off and the task's cancellation honoured. The paths,
/// JSON, login, renewal, redirects and retries are written once, here and in the plans' builders;
/// the drivers only send, wait and take the login turn.
package enum VaultPlan<Output> {
    /// Send this request once, then continue with its answer or the transport's failure.
    case send(VaultRequest, then: (Result<VaultResponse, VaultTransportError>) throws(KeychainError) -> VaultPlan)
    /// Wait this long (a retry's back-off), then continue.
    case wait(Duration, then: () throws(KeychainError) -> VaultPlan)
    /// Get a token from a new login or a renewal, one caller at a time (`VaultClient.refresh`), then
    /// continue with it.
    case refreshToken(then: (SecureBytes) throws(KeychainError) -> VaultPlan)
    /// The call's result.
    case done(Output)

    /// This plan, then `next` with its result.
    package func flatMap<Next>(
        _ next: @escaping (Output) throws(KeychainError) -> VaultPlan<Next>
    ) throws(KeychainError) -> VaultPlan<Next> {
        switch self {
        case .done(let output):
            return try next(output)
        case .send(let request, let then):
            return .send(request) { result throws(KeychainError) in try then(result).flatMap(next) }
        case .wait(let duration, let then):
            return .wait(duration) { () throws(KeychainError) in try then().flatMap(next) }
        case .refreshToken(let then):
            return .refreshToken { token throws(KeychainError) in try then(token).flatMap(next) }
        }
    }

    /// This plan with its result transformed.
    package func map<Next>(
        _ transform: @escaping (Output) throws(KeychainError) -> Next
    ) throws(KeychainError)
        -> VaultPlan<Next>
    {
        try flatMap { output throws(KeychainError) in .done(try transform(output)) }
    }

    /// The plan `make` builds, with any error it or a later step throws handed to `recover`, which
    /// throws it on or continues with another plan.
    package static func catching(
        _ make: () throws(KeychainError) -> VaultPlan,
        _ recover: @escaping (KeychainError) throws(KeychainError) -> VaultPlan
    ) throws(KeychainError) -> VaultPlan {
        let plan: VaultPlan
        do {
            plan = try make()
        } catch {
            return try recover(error)
        }
        return plan.recovering(recover)
    }

    private func recovering(_ recover: @escaping (KeychainError) throws(KeychainError) -> VaultPlan) -> VaultPlan {
        switch self {
        case .done: return self
        case .send(let request, let then):
            return .send(request) { result throws(KeychainError) in
                try Self.catching({ () throws(KeychainError) in try then(result) }, recover)
            }
        case .wait(let duration, let then):
            return .wait(duration) { () throws(KeychainError) in try Self.catching(then, recover) }
        case .refreshToken(let then):
            return .refreshToken { token throws(KeychainError) in
                try Self.catching({ () throws(KeychainError) in try then(token) }, recover)
            }
        }
    }
}
