import ArgumentParser
import SecKit

/// How `seccli pin` and `seccli tls doctor` connect: server name, trust, timeout.
struct TLSClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The name sent in SNI, verified against the certificate and used for the pins (default: HOST). "
                + "With --file: the host name in the OkHttp lines (default: the first DNS name of the first certificate).",
            valueName: "name"
        )
    )
    var servername: String?

    @Option(
        name: .customLong("ca"),
        help: ArgumentHelp(
            "Trust the CA certificates of this PEM file instead of the system store.",
            valueName: "file"
        )
    )
    var caFile: String?

    @Flag(
        name: .customLong("pin-only"),
        help: "Trust the pins alone (pin --expect, tls doctor --pin): no CA, no host name check (self-signed servers)."
    )
    var pinOnly = false

    @Option(
        help: ArgumentHelp("Limit for each phase (connect, handshake), in seconds (default: 10).", valueName: "seconds")
    )
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= 3600) {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds")
        }
        if pinOnly && caFile != nil { throw ValidationError("--pin-only and --ca exclude each other") }
    }

    /// The configuration for these options, pinning `pins` (if any) for the server name.
    func configuration(
        host: String,
        pins: [Pin],
        identity: ClientIdentity?,
        reportURI: PinReportURI? = nil
    ) throws(TLSError) -> TLSClientConfiguration {
        let trust: TrustRoots = pinOnly ? .pinsOnly : caFile.map { .caFile($0) } ?? .system
        return TLSClientConfiguration(
            trustRoots: trust,
            pinPolicy: pins.isEmpty ? nil : try PinPolicy(host: servername ?? host, pins: pins, reportURI: reportURI),
            clientIdentity: identity,
            serverName: servername,
            timeouts: .all(.milliseconds(Int64((timeout ?? 10) * 1000)))
        )
    }

    /// `system`, `ca-file` or `pin-only`, as the report names the trust.
    var trustName: String { pinOnly ? "pin-only" : caFile == nil ? "system" : "ca-file" }
}
