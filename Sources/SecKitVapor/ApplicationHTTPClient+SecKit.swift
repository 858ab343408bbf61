import AsyncHTTPClient
import NIOSSL
import SecKitHTTPClient
import SecKitNIO
import SecTLS
import Vapor

extension Application.HTTP.Client {
    /// Makes Vapor's HTTP client (`app.client`, `req.client`) apply SecTLS's configuration on
    /// every new connection: `HTTPClient.Configuration(secKit:onPinEvaluation:)` — trust, TLS
    /// versions, client identity, and pins checked before any request byte is sent. A refused
    /// connection fails the call with the `TLSError` (`pinMismatch` lists the certificate's and
    /// the expected pins).
    ///
    /// ```swift
    /// try app.http.client.useSecKit(tls)
    /// let response = try await req.client.get("https://partner.example.com/v1/orders")
    /// ```
    ///
    /// Call it while configuring the application: Vapor makes its client once, at the first use.
    ///
    /// - Parameters:
    ///   - configuration: SecTLS's configuration; its `serverName` must be nil (the name comes
    ///     from each URL).
    ///   - onPinEvaluation: called with every pin evaluation, on the connection's event loop.
    /// - Throws: `TLSError.invalidConfiguration` for what
    ///   `HTTPClient.Configuration(secKit:onPinEvaluation:)` refuses, and when Vapor kept another
    ///   configuration because its client was already used (the pins would not apply).
    public func useSecKit(
        _ configuration: TLSClientConfiguration,
        onPinEvaluation: (@Sendable (PinEvaluation) -> Void)? = nil
    ) throws(TLSError) {
        try use(try HTTPClient.Configuration(secKit: configuration, onPinEvaluation: onPinEvaluation))
    }

    /// `useSecKit(_:onPinEvaluation:)` with a `ClientTLSContext`'s configuration, whose pin policy
    /// rotates: each new connection of Vapor's client is checked against the pins the context
    /// holds then (`context.reload(configuration:)`), as
    /// `HTTPClient.Configuration(secKit:onPinEvaluation:logger:metricsFactory:)` with a context
    /// does; a reload that changes the trust roots, versions or client identity makes new
    /// connections fail with `invalidConfiguration`.
    ///
    /// - Parameters:
    ///   - context: the configuration, and the pin policy of every new connection.
    ///   - onPinEvaluation: called with every pin evaluation, on the connection's event loop.
    /// - Throws: what `useSecKit(_:onPinEvaluation:)` throws.
    public func useSecKit(
        _ context: ClientTLSContext,
        onPinEvaluation: (@Sendable (PinEvaluation) -> Void)? = nil
    ) throws(TLSError) {
        try use(try HTTPClient.Configuration(secKit: context, onPinEvaluation: onPinEvaluation))
    }

    private func use(_ secKit: HTTPClient.Configuration) throws(TLSError) {
        self.configuration = secKit
        // Vapor only logs a warning when its client exists already, and keeps the old configuration.
        guard let kept = self.configuration.tlsConfiguration, let wanted = secKit.tlsConfiguration,
            kept.bestEffortEquals(wanted)
        else {
            throw .invalidConfiguration(
                "Vapor's HTTP client was already used and keeps its configuration: call useSecKit before the first request"
            )
        }
    }
}
