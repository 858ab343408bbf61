import Logging
import Metrics
import SecVault

extension VaultTokenEvent {
    /// A `VaultConfiguration.tokenEvents` handler that logs each event to `logger` and counts it
    /// (`seckit_vault_token_events_total`, by `event`: login, login_failed, renewal,
    /// renewal_failed, token_refused): logins and renewals at debug, a renewal that failed and a
    /// refused token at notice, a failed login at warning. The token is never logged.
    ///
    /// ```swift
    /// configuration.tokenEvents = VaultTokenEvent.reporter(logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - logger: the application's logger.
    ///   - metricsFactory: where the events are counted: the factory the application bootstrapped
    ///     unless another is given.
    /// - Returns: the handler to set as `tokenEvents`.
    public static func reporter(
        logger: Logger,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) -> @Sendable (VaultTokenEvent) -> Void {
        { event in
            Counter(
                label: "seckit_vault_token_events_total",
                dimensions: [("event", event.metricName)],
                factory: metricsFactory
            ).increment()
            switch event {
            case .loggedIn(let method, let lease):
                logger.debug(
                    "OpenBao login",
                    metadata: ["vault.login": "\(method)", "vault.lease": "\(lease.map { "\($0)" } ?? "none")"]
                )
            case .loginFailed(let method, let error):
                logger.warning(
                    "OpenBao login failed",
                    metadata: ["vault.login": "\(method)", "vault.error": "\(error)"]
                )
            case .renewed(let lease):
                logger.debug("OpenBao token renewed", metadata: ["vault.lease": "\(lease.map { "\($0)" } ?? "none")"])
            case .renewalFailed(let error):
                logger.notice(
                    "OpenBao token renewal failed; logging in again",
                    metadata: ["vault.error": "\(error.map { "\($0)" } ?? "the token reached its maximum TTL")"]
                )
            case .tokenRefused:
                logger.notice("OpenBao refused the token; logging in again")
            }
        }
    }

    /// The `event` label.
    var metricName: String {
        switch self {
        case .loggedIn: "login"
        case .loginFailed: "login_failed"
        case .renewed: "renewal"
        case .renewalFailed: "renewal_failed"
        case .tokenRefused: "token_refused"
        }
    }
}
