import NIOConcurrencyHelpers
import NIOCore
import SecKitNIO
import SecKitVapor
import Vapor

// MARK: Vapor

/// `vapor-mtls-get` and `vapor-mtls-get-seckit`: one AsyncHTTPClient GET on a new connection,
/// presenting the client certificate, to an in-process Vapor application that requires one,
/// on the servers' event loop as the Hummingbird pair. Plain: Vapor's own TLS
/// (`tlsConfiguration`) with swift-nio-ssl's client verification against the CA. SecKit:
/// `useMutualTLS` with a `ServerTLSContext` whose `ClientCertificateVerifier` trusts the CA (the
/// server's key held by OpenSSL), the handler reading `req.secKitClient`. The client is the same
/// swift-nio-ssl one for both, as in `mtls-get`.
func vaporMutualTLSGet(secKit: Bool) -> Benchmark {
    let name = secKit ? "vapor-mtls-get-seckit" : "vapor-mtls-get"
    return Benchmark(
        name: name,
        summary: "AsyncHTTPClient GET with a client certificate, connection: close, to Vapor "
            + (secKit
                ? "useMutualTLS (SecKit's client verification)"
                : "tlsConfiguration (swift-nio-ssl's client verification)")
    ) {
        var configuration = HTTPServer.Configuration(hostname: "127.0.0.1", port: 0)
        configuration.logger.logLevel = .error
        let context = secKit ? mutualTLSServerContext(name) : nil
        if !secKit {
            configuration.tlsConfiguration = plainMutualTLSServerConfiguration(name)
            // As useMutualTLS: HTTP/1.1 (the client speaks nothing else) and the same idle timeout.
            configuration.supportVersions = [.one]
            configuration.idleTimeout = .seconds(60)
        }
        let port = startVapor(configuration, mutualTLS: context, name: name)
        let get = getter(plainClientConfiguration(identity: true, name: name), port: port, name: name)
        return Prepared(operation: { UInt8(truncatingIfNeeded: get().utf8.count) }, result: get())
    }
}

/// Starts a Vapor application with `configuration` (and `useMutualTLS` with `mutualTLS` if given) on
/// the servers' event loop that answers GET /
/// with `ok`, or with the subject of the client SecKit verified; returns its port once it listens.
/// It runs until the process exits: Vapor's connections refer to the application without keeping
/// it, so it is kept here.
private func startVapor(_ configuration: HTTPServer.Configuration, mutualTLS: ServerTLSContext?, name: String) -> Int {
    let listening = serverGroup.next().makePromise(of: Int.self)
    Task.detached {
        do {
            let app = try await Application.make(.production, .shared(serverGroup))
            app.logger.logLevel = .error
            app.http.server.configuration = configuration
            if let mutualTLS { app.http.useMutualTLS(mutualTLS) }
            app.get { req in req.secKitClient.map { "client \($0.subject)" } ?? "ok" }
            try await app.server.start(address: nil)
            runningApplications.withLockedValue { $0.append(app) }
            listening.succeed(app.http.server.shared.localAddress?.port ?? 0)
        } catch {
            listening.fail(error)
        }
    }
    return attempt(name) { try listening.futureResult.wait() }
}

private let runningApplications = NIOLockedValueBox<[Application]>([])
