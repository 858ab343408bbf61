import Foundation
import SecKit
import TestSupport
import Testing

@testable import seccli

/// What docs/seccli.md (and the seccli parts of README.md and docs/SecEnvelope.md) say of seccli's
/// defaults and limits, held to the values seccli uses: its own, or those of the SecKit module it takes
/// them from. (The exit codes have ExitStatusTests.)
@Suite("docs/seccli.md states seccli's defaults and limits")
struct SeccliDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/seccli.md")
    }

    /// `10` for 10 seconds, as the pages write `--timeout` values.
    static func wholeSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
    }

    @Test("hash: the default algorithm, the chunk size, the read-ahead and the longest list line")
    func hash() throws {
        let algorithm = try AlgorithmOption.parse([]).algorithm.rawValue
        #expect(try page.passage(containing: "- Default algorithm").hasPrefix("- Default algorithm `\(algorithm)`."))
        let readme = try DocsPage("README.md").passage(containing: "# sha256sum-compatible lines")
        #expect(readme.hasPrefix("seccli hash [--algorithm \(algorithm)] "))
        #expect(
            try page.passage(containing: "- Files are read in")
                .hasPrefix("- Files are read in \(DocsPage.byteSize(FileInput.chunkSize)) chunks:")
        )
        #expect(
            try page.passage(containing: "Several files are hashed at once")
                .contains("At most \(OrderedParallelMap.window) files are read ahead of the next line printed")
        )
        let line = DocsPage.byteSize(ChecksumListEntries.maximumLineLength)
        #expect(
            try page.passage(containing: "The list is read line by line").contains(
                "A line may be at most \(line), far longer"
            )
        )
        #expect(
            try DocsPage("docs/robustness.md").passage(containing: "`hash --check` list: CRLF")
                .contains("a line over \(line) is improperly formatted;")
        )
    }

    @Test("encrypt --password: the openssl format's iteration count, and the count below which seccli warns")
    func encryptIterations() throws {
        let iterations = OpenSSLEncFormat.defaultIterations
        #expect(
            try page.passage(containing: "seccli encrypt --password SOURCE [--cipher").contains(
                "[--iter \(iterations)]"
            )
        )
        let passage = try page.passage(containing: "`--password` writes and reads the `openssl enc -pbkdf2` format")
        #expect(passage.contains("the default is openssl's \(DocsPage.count(iterations)),"))
        let minimum = DocsPage.count(KDF.PBKDF2.minimumIterations(for: .sha256))
        #expect(passage.contains("below the recommended minimum (\(minimum) for sha256)"))
    }

    @Test("encrypt with a key: GCM's tag and nonce sizes")
    func gcmSizes() throws {
        let tag = AES.GCM.tagByteCount
        let nonce = AES.GCM.Nonce.defaultByteCount
        #expect(
            try page.passage(containing: "`--key` and `--iv` give raw output identical")
                .contains("For GCM the output is ciphertext ‖ \(tag)-byte tag, the nonce \(nonce) bytes is recommended")
        )
    }

    @Test("the progress bar's threshold")
    func progressThreshold() throws {
        let threshold = DocsPage.byteSize(Int(ProgressSink.threshold))
        #expect(
            try page.passage(containing: "a progress bar when stderr is a terminal").contains(
                "Files over \(threshold) show"
            )
        )
    }

    @Test("the sealed formats: payload and token limits, here and in docs/SecEnvelope.md")
    func sealedLimits() throws {
        let payload = DocsPage.byteSize(maximumPayloadByteCount)
        let token = DocsPage.byteSize(maximumTokenByteCount)
        #expect(
            try page.passage(containing: "The payload is held in memory")
                .contains("payloads over \(payload) (tokens over \(token)) are refused")
        )
        #expect(
            try DocsPage("docs/SecEnvelope.md").passage(containing: "These formats hold the payload in memory")
                .contains("These formats hold the payload in memory (up to \(payload));")
        )
    }

    @Test("jwe --password: the default algorithm's iterations, as seccli writes them into the token")
    func jweIterations() throws {
        let result = try Tools.seccli(
            ["encrypt", "--format", "jwe", "--password", "env:SECCLI_DOCS_PASSWORD"],
            stdin: Array("payload".utf8),
            environment: ["SECCLI_DOCS_PASSWORD": "docs"]
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let header = try JWE.Token(compact: result.stdoutText).header
        let iterations = try #require(header.pbes2Iterations)
        #expect(
            try page.passage(containing: "- jwe: `--key` uses `dir`")
                .contains("`--password` uses PBES2 with \(DocsPage.count(iterations)) iterations by default")
        )
    }

    @Test("fernet: how far ahead a token may be dated")
    func fernetClockSkew() throws {
        #expect(
            try page.passage(containing: "- fernet: several `--key` are tried in turn")
                .contains("tokens dated more than \(Fernet.maximumClockSkew) s ahead are always refused")
        )
    }

    @Test("kdf: the longest key")
    func kdfLength() throws {
        #expect(
            try page.passage(containing: "Prints the PBKDF2-HMAC key in hex")
                .hasSuffix("`--length` is 1 to \(SecCLI.KDFCommand.maximumLength) bytes.")
        )
    }

    @Test("cred and sso: the stores' defaults, the largest secret, the timeout")
    func credentialStores() throws {
        let iterations = DocsPage.count(EncryptedFileStore.defaultIterations)
        #expect(try page.row("where")[2].contains("PBKDF2-HMAC-SHA256 (\(iterations) iterations) of a master password"))
        #expect(try page.row("secret")[2].hasSuffix("default `\(StoreOptions.defaultPasswordSource)`"))
        let timeout = Self.wholeSeconds(StoreOptions.defaultTimeout)
        #expect(
            try page.passage(containing: "Both take `--timeout SECONDS`").hasPrefix(
                "Both take `--timeout SECONDS` (default \(timeout)):"
            )
        )
        let size = DocsPage.byteSize(SecretServiceStore.maximumSecretByteCount)
        #expect(
            try page.passage(containing: "- **The secret never comes from argv.**").hasSuffix(
                "Up to \(size); more is refused (exit 2) and nothing is stored."
            )
        )
        #expect(
            try page.passage(containing: "`cred set --secret` and `sso login --token` are the exception").contains(
                "(up to \(size))"
            )
        )
    }

    @Test("keyring: sources and pin --identity: how long the Secret Service is waited for")
    func keyringTimeouts() throws {
        let keyring = SecretServiceStore.defaultTimeout
        let identity = Self.wholeSeconds(StoreOptions.defaultTimeout)
        #expect(
            identity == "\(keyring.components.seconds)" && keyring.components.attoseconds == 0,
            "one value on the page"
        )
        #expect(
            try page.passage(containing: "A `keyring:` source is read from the Secret Service")
                .contains("no answer within \(identity) seconds 14")
        )
        #expect(
            try page.passage(containing: "`--identity NAME` uses an identity stored").contains(
                "within \(identity) seconds;"
            )
        )
        #expect(
            try page.row("14")[3]
                .contains("(\(identity) seconds for a `keyring:` secret source and `pin --identity`)")
        )
    }

    @Test("pin: the default port and the connection's timeout")
    func pin() throws {
        #expect(
            try page.passage(containing: "Connects to `HOST`").contains(
                "(port \(ServerAddress.defaultPort) unless given;"
            )
        )
        let timeouts = try TLSClientOptions.parse([]).configuration(host: "example.com", pins: [], identity: nil)
            .timeouts
        #expect(timeouts.connect == timeouts.handshake)
        #expect(timeouts.connect.components.attoseconds == 0)
        #expect(
            try page.passage(containing: "- `--timeout SECONDS` (default")
                .hasPrefix(
                    "- `--timeout SECONDS` (default \(timeouts.connect.components.seconds)) limits each phase: connect"
                )
        )
    }
}
