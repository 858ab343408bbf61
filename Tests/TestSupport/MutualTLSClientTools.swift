import Foundation
import SecTLS

/// `curl` and `openssl s_client` as the clients of the mutual TLS servers under test. They run on a
/// thread of their own: `ProcessRunner.run` blocks until the process exits, and the server's
/// request handlers need the cooperative pool (two threads on a two-core machine) meanwhile.
public enum MutualTLSClientTools {
    /// A client certificate of the `TestPKI` folder (`<name>.pem`, `<name>.key`), sent with or
    /// without its intermediate (curl takes `<name>-chain.pem`, s_client `-cert_chain intermediate.pem`).
    public struct Identity: Sendable {
        public var name: String
        public var sendsIntermediate: Bool

        public init(name: String, sendsIntermediate: Bool) {
            self.name = name
            self.sendsIntermediate = sendsIntermediate
        }

        /// `client` (RSA) with the intermediate: the identity the client CA vouches for.
        public static let client = Identity(name: "client", sendsIntermediate: true)
        /// `client-ec` (EC P-256) with the same intermediate.
        public static let clientEC = Identity(name: "client-ec", sendsIntermediate: true)
        /// `rogue-client`, issued by a CA the servers do not trust.
        public static let rogue = Identity(name: "rogue-client", sendsIntermediate: false)

        var curlOptions: [String] {
            ["--cert", sendsIntermediate ? "\(name)-chain.pem" : "\(name).pem", "--key", "\(name).key"]
        }
        var sClientOptions: [String] {
            ["-cert", "\(name).pem", "-key", "\(name).key"]
                + (sendsIntermediate ? ["-cert_chain", "intermediate.pem"] : [])
        }
    }

    /// `curl https://127.0.0.1:PORT/` trusting the fixture's CA, with `identity` (none: no client
    /// certificate), restricted to TLS `version`.
    public static func curl(
        port: Int,
        identity: Identity?,
        version: TLSVersion,
        extraOptions: [String] = []
    ) async throws -> ProcessResult {
        let fixture = TestPKI.shared
        let versionOptions = version == .tls13 ? ["--tlsv1.3", "--tls-max", "1.3"] : ["--tlsv1.2", "--tls-max", "1.2"]
        let identityOptions = identity?.curlOptions ?? []
        let arguments =
            [
                "--silent", "--show-error", "--fail", "--max-time", "\(20 * ProcessRunner.timeoutScale)", "--cacert",
                "ca.pem",
            ] + versionOptions
            + identityOptions + extraOptions + ["https://127.0.0.1:\(port)/"]
        return try await ProcessRunner.offThePool {
            try ProcessRunner.run("curl", arguments, currentDirectory: fixture.directory)
        }
    }

    /// `openssl s_client` to 127.0.0.1:PORT with `identity`, restricted to TLS `version`, sending
    /// `GET /` with `Connection: close` and reading until the server closes (`-ign_eof`).
    public static func sClient(port: Int, identity: Identity?, version: TLSVersion) async throws -> ProcessResult {
        let fixture = TestPKI.shared
        let identityOptions = identity?.sClientOptions ?? []
        let arguments =
            [
                "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", "ca.pem", "-verify_return_error",
                version == .tls13 ? "-tls1_3" : "-tls1_2", "-ign_eof",
            ] + identityOptions
        return try await ProcessRunner.offThePool {
            try ProcessRunner.run(
                "openssl",
                arguments,
                stdin: Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                currentDirectory: fixture.directory
            )
        }
    }
}
