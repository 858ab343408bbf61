import Foundation
import TestSupport
import Testing

/// `--format legacy-json` against the book's PHP server (Tests/Peers/legacy_server.php), in both roles.
extension EnvelopeCLITests {
    static let transferFields = "toAccount,fromAccount,amount,transferDate"

    @Test(
        "the book's flow: request seccli → PHP, response PHP → seccli, and the other way round (--mac-fields for requests only)"
    )
    func legacyBookFlow() throws {
        // The book's keys: 32-character strings, used as raw bytes (seccli's default --key-format for legacy-json).
        let environment = ["LEGACY_KEY": randomPrintable(32), "LEGACY_MAC_KEY": randomPrintable(24)]
        let seccli = ["--format", "legacy-json", "--key", "env:LEGACY_KEY", "--mac-key", "env:LEGACY_MAC_KEY"]
        let macFields = ["--mac-fields", Self.transferFields]
        let transfer = Array(
            #"{"toAccount":"00012345","fromAccount":"00067890","amount":"250.00","transferDate":"2024-05-01 12:30:00"}"#
                .utf8
        )
        let response = Array(#"{"status":"ok","message":"Transfer of 250.00 complete / réf #42"}"#.utf8)

        // The app (seccli) sends a transfer request; the server (PHP, listing 6-16) opens it.
        let request = try Self.tokenLine(
            try Tools.seccli(
                ["encrypt"] + seccli + macFields,
                stdin: transfer,
                environment: environment,
                expecting: .success
            )
        )
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any],
            "not JSON: \(request)"
        )
        #expect(Set(envelope.keys) == ["iv", "mac", "payload"], "envelope \(request)")
        #expect((envelope["iv"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 16, "iv: \(request)")
        let mac = envelope["mac"] as? String ?? ""
        #expect(
            mac.count == 64 && mac.allSatisfy { "0123456789abcdef".contains($0) },
            "mac: lower-case hex HMAC-SHA256: \(request)"
        )
        let received = try InteropPeer.legacy.run(
            ["decrypt-request"],
            stdin: Array(request.utf8),
            environment: environment
        )
        expectSameBytes(received.stdout, transfer, "PHP decrypt-request of seccli's request")

        // The server answers (listing 6-19); the app opens the response, MACed over the plaintext.
        let answer = try InteropPeer.legacy.run(["encrypt-response"], stdin: response, environment: environment)
        let opened = try Tools.seccli(
            ["decrypt"] + seccli,
            stdin: answer.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(opened.stdout, response, "seccli decrypt of PHP's response")

        // Roles swapped: PHP as the client, seccli as the server.
        let phpRequest = try InteropPeer.legacy.run(["encrypt-request"], stdin: transfer, environment: environment)
        let openedRequest = try Tools.seccli(
            ["decrypt"] + seccli + macFields,
            stdin: phpRequest.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(openedRequest.stdout, transfer, "seccli decrypt --mac-fields of PHP's request")
        let ourResponse = try Self.tokenLine(
            try Tools.seccli(["encrypt"] + seccli, stdin: response, environment: environment, expecting: .success)
        )
        let phpOpened = try InteropPeer.legacy.run(
            ["decrypt-response"],
            stdin: Array(ourResponse.utf8),
            environment: environment
        )
        expectSameBytes(phpOpened.stdout, response, "PHP decrypt-response of seccli's response")

        // The MAC input must match: a request opened as a response (no --mac-fields) fails, and vice versa.
        try withScratch { dir in
            try dir.write("request.json", phpRequest.stdout)
            try dir.write("response.json", answer.stdout)
            for (file, options) in [("request.json", [String]()), ("response.json", macFields)] {
                let message = try expectRefused(
                    ["decrypt"] + seccli + options + ["--in", file],
                    environment: environment,
                    in: dir,
                    status: 1
                )
                #expect(message == Self.authenticationFailed, "\(file)")
            }
        }
    }
}
