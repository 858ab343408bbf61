import SecTLS

#if canImport(Glibc)
import Glibc
#endif

// MARK: TLS

/// The environment variable `variable`, which tools/bench/run sets for `benchmark`; fails when unset.
func benchSetting(_ variable: String, for benchmark: String) -> String {
    guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else {
        fail("\(benchmark): \(variable) is not set")
    }
    return value
}

/// The port of tools/bench/run's `openssl s_server` (`SECKIT_BENCH_TLS_PORT`).
func benchPort(for benchmark: String) -> Int {
    guard let port = Int(benchSetting("SECKIT_BENCH_TLS_PORT", for: benchmark)) else {
        fail("\(benchmark): SECKIT_BENCH_TLS_PORT is not a number")
    }
    return port
}

/// `tls-handshake` and `tls-handshake-pinned`: one operation is a full TLS handshake with a local
/// server (TCP connect to 127.0.0.1, handshake with SNI `localhost`, chain verification against a CA
/// file and host name check, then close), through one `TLSClient` whose OpenSSL context is made once.
/// The pinned variant also checks a `PinPolicy` for `localhost` (one pin, matched by the last
/// certificate of the verified chain, so every certificate's pin is computed). The server is
/// tools/bench/run's `openssl s_server`; it is named by the environment:
///
///   SECKIT_BENCH_TLS_PORT   its port on 127.0.0.1
///   SECKIT_BENCH_TLS_CA     the CA file its chain verifies against
///   SECKIT_BENCH_TLS_PIN    (pinned only) the pin to expect
///
/// `result=` is the negotiated protocol and cipher (`TLSv1.3/TLS_AES_128_GCM_SHA256`), so the run can
/// check that the handshakes compared with `openssl s_time` were the same.
func tlsHandshake(pinned: Bool) -> Benchmark {
    let name = pinned ? "tls-handshake-pinned" : "tls-handshake"
    return Benchmark(
        name: name,
        summary:
            "TLSClient.connect + close to 127.0.0.1:$SECKIT_BENCH_TLS_PORT (CA $SECKIT_BENCH_TLS_CA, SNI localhost)"
            + (pinned ? ", pin $SECKIT_BENCH_TLS_PIN checked" : ", no pins")
    ) {
        func setting(_ variable: String) -> String { benchSetting(variable, for: name) }
        let port = benchPort(for: name)
        let client: TLSClient
        do {
            var configuration = TLSClientConfiguration(
                trustRoots: .caFile(setting("SECKIT_BENCH_TLS_CA")),
                serverName: "localhost"
            )
            if pinned {
                configuration.pinPolicy = try PinPolicy(
                    host: "localhost",
                    pins: [Pin(parsing: setting("SECKIT_BENCH_TLS_PIN"))]
                )
            }
            client = try TLSClient(configuration: configuration)
        } catch {
            fail("\(name): \(error)")
        }
        func handshake() -> TLSConnection {
            do {
                let connection = try client.connect(host: "127.0.0.1", port: port)
                connection.close()
                return connection
            } catch {
                fail("\(name): \(error)")
            }
        }
        let first = handshake()
        switch first.pinEvaluation.outcome {
        case .matched(_, let depth) where pinned && depth == first.verifiedChain.count - 1: break
        case .notPinned where !pinned: break
        default: fail("\(name): unexpected pin evaluation: \(first.pinEvaluation)")
        }
        return Prepared(
            operation: { UInt8(truncatingIfNeeded: handshake().verifiedChain.count) },
            result: "\(first.protocolVersion)/\(first.cipher)"
        )
    }
}

/// `tls-pin-failure` and `tls-pin-failure-report`: one operation is a full TLS handshake, as in
/// `tls-handshake`, whose enforced pin fails (`TLSError.pinMismatch`, the connection refused). The
/// report variant's policy has a `reportURI` pointing to a collector that accepts connections and
/// never answers (tools/bench/run's listener, `SECKIT_BENCH_TLS_REPORT_URI`): the first failure
/// starts a report in the background, every later one within 10 minutes is the same failure and is
/// only counted by the rate limiter, which is what a client that keeps failing pays. `result=` is the
/// mismatch's outcome.
func tlsPinFailure(reporting: Bool) -> Benchmark {
    let name = reporting ? "tls-pin-failure-report" : "tls-pin-failure"
    return Benchmark(
        name: name,
        summary:
            "TLSClient.connect to 127.0.0.1:$SECKIT_BENCH_TLS_PORT with a pin that fails"
            + (reporting ? ", report URI $SECKIT_BENCH_TLS_REPORT_URI (never answers)" : ", no report URI")
    ) {
        func setting(_ variable: String) -> String { benchSetting(variable, for: name) }
        let port = benchPort(for: name)
        let client: TLSClient
        do {
            // The SHA-256 of nothing: no key has this pin.
            let wrong = try Pin(parsing: "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
            let report = reporting ? try PinReportURI(setting("SECKIT_BENCH_TLS_REPORT_URI")) : nil
            var configuration = TLSClientConfiguration(
                trustRoots: .caFile(setting("SECKIT_BENCH_TLS_CA")),
                serverName: "localhost"
            )
            configuration.pinPolicy = try PinPolicy(host: "localhost", pins: [wrong], reportURI: report)
            client = try TLSClient(configuration: configuration)
        } catch {
            fail("\(name): \(error)")
        }
        func handshake() -> PinEvaluation {
            do {
                let connection = try client.connect(host: "127.0.0.1", port: port)
                connection.close()
                fail("\(name): the pin did not fail")
            } catch .pinMismatch(let evaluation) {
                return evaluation
            } catch {
                fail("\(name): \(error)")
            }
        }
        let first = handshake()
        return Prepared(
            operation: { UInt8(truncatingIfNeeded: handshake().chain.count) },
            result: first.outcome == .mismatched ? "mismatched" : "\(first.outcome)"
        )
    }
}
