import Foundation

/// The interop peers of `Tests/Peers`: programs on the reference libraries (joserfc, Python's
/// `cryptography.fernet`, AESGCM and ChaCha20Poly1305, PHP's openssl functions) that the library and CLI tests talk to,
/// and the hostile HTTP server the authentication tests start (`HostileAuthServer`), and grpcio's
/// echo.Echo client and server (SecKitGRPCTests). Keys go in
/// the environment only; variables of the test process that could pick another key are not inherited.
/// A peer that cannot run (interpreter or library missing) throws `PeerUnavailable`: the tests fail
/// with what to install, they never skip.
public enum InteropPeer: String, CaseIterable, Sendable {
    case jose = "jose_peer.py"
    case fernet = "fernet_peer.py"
    case aead = "aead_peer.py"
    case legacy = "legacy_server.php"
    case digest = "digest_peer.py"
    case hostileAuthServer = "hostile_auth_server.py"
    case stallingServer = "stalling_server.py"
    case pinReportCollector = "pin_report_collector.py"
    case hvac = "hvac_peer.py"
    case fakeVaultServer = "fake_vault_server.py"
    case grpcEcho = "grpc_echo_peer.py"

    /// `Tests/Peers`.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Peers").path

    /// Every variable the peers read a key from.
    public static let keyVariables: Set<String> = [
        "JOSE_KEY_HEX", "JOSE_PASSWORD", "JOSE_KEYSET_JSON", "FERNET_KEY", "FERNET_KEYS", "LEGACY_KEY",
        "LEGACY_MAC_KEY", "AEAD_KEY_HEX", "DIGEST_PASSWORD", "BAO_TOKEN", "VAULT_TOKEN",
    ]

    public var path: String { Self.directory + "/" + rawValue }

    /// Runs the peer; its exit status is the caller's to judge.
    public func runAllowingFailure(
        _ arguments: [String],
        stdin: [UInt8] = [],
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let command = try commandLine()
        return try ProcessRunner.run(
            command[0],
            Array(command.dropFirst()) + arguments,
            stdin: stdin,
            environment: environment,
            unsetting: Self.keyVariables
        )
    }

    /// Runs the peer and throws unless it exits 0.
    public func run(
        _ arguments: [String],
        stdin: [UInt8] = [],
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        try runAllowingFailure(arguments, stdin: stdin, environment: environment)
            .requiringSuccess(of: "\(rawValue) \(arguments.joined(separator: " "))")
    }

    /// The interpreter and the peer's path; throws `PeerUnavailable` when the peer cannot run.
    public func commandLine() throws -> [String] {
        if let problem = Self.problems[self] { throw PeerUnavailable(peer: self, problem: problem) }
        return [try interpreter(), path]
    }

    /// The interpreter, resolved once for Python: pyenv's `python3` is a shell shim that costs about
    /// 0.1 s a call.
    private func interpreter() throws -> String {
        self == .legacy ? "php" : try Self.python3.get()
    }

    private static let python3 = Result { () throws -> String in
        let found = try ProcessRunner.run("python3", ["-c", "import sys; sys.stdout.write(sys.executable)"])
        guard found.status == 0, !found.stdout.isEmpty else {
            throw ProcessRunnerError(description: "python3 does not run: \(found.stderr)")
        }
        return found.stdoutText
    }

    /// A command that succeeds when the interpreter and the library the peer is built on are there.
    private var probe: [String] {
        switch self {
        case .jose: ["python3", "-c", "import joserfc.jwe"]
        case .fernet: ["python3", "-c", "import cryptography.fernet"]
        case .aead: ["python3", "-c", "import cryptography.hazmat.primitives.ciphers.aead"]
        case .digest: ["python3", "-c", "import requests.auth"]
        case .hostileAuthServer: ["python3", "-c", "import http.server, ssl"]
        case .stallingServer: ["python3", "-c", "import socket, ssl, threading"]
        case .pinReportCollector: ["python3", "-c", "import http.server, ssl, threading"]
        case .hvac: ["python3", "-c", "import hvac"]
        case .fakeVaultServer: ["python3", "-c", "import http.server, ssl, threading"]
        case .grpcEcho: ["python3", "-c", "import grpc"]
        case .legacy:
            ["php", "-r", "exit(function_exists('openssl_encrypt') && function_exists('hash_hmac') ? 0 : 1);"]
        }
    }

    /// Why each peer cannot run (absent: it can), found once.
    private static let problems: [InteropPeer: String] = {
        var problems: [InteropPeer: String] = [:]
        for peer in allCases {
            if let problem = peer.findProblem() { problems[peer] = problem }
        }
        return problems
    }()

    private func findProblem() -> String? {
        guard FileManager.default.isReadableFile(atPath: path) else { return "\(path) does not exist" }
        do {
            let result = try ProcessRunner.run(probe[0], Array(probe.dropFirst()))
            guard result.status != 0 else { return nil }
            return
                "'\(probe.joined(separator: " "))' failed (\(result.status)): \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        } catch {
            return "\(probe[0]) cannot be run: \(error)"
        }
    }
}

/// A peer that cannot run here.
public struct PeerUnavailable: Error, CustomStringConvertible {
    public let peer: InteropPeer
    public let problem: String

    public var description: String {
        "the \(peer.rawValue) peer is required (python3 with cryptography, joserfc, requests and hvac, php-cli with openssl; tools/install-deps installs them): \(problem)"
    }
}
