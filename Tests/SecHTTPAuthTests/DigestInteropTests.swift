import Foundation
import SecCrypto
import SecHTTPAuth
import Synchronization
import TestSupport
import Testing

/// Python's `requests.auth.HTTPDigestAuth` answers the same challenge for three requests; SecHTTPAuth,
/// given the client nonces requests picked, must send the same response, nonce count and fields.
@Suite struct DigestInteropTests {
    struct Case: Sendable, CustomStringConvertible {
        let algorithm: String
        let qop: String?
        var description: String { "\(algorithm), qop \(qop ?? "absent")" }
    }

    @Test(arguments: [
        Case(algorithm: "MD5", qop: "auth"), Case(algorithm: "MD5-sess", qop: "auth"),
        Case(algorithm: "SHA-256", qop: "auth"), Case(algorithm: "SHA-256", qop: "auth,auth-int"),
        Case(algorithm: "MD5", qop: nil), Case(algorithm: "SHA-256", qop: nil),
    ])
    func requestsComputesTheSameResponses(_ setting: Case) throws {
        let password = "pä55 \"word\""
        let nonce = Base64.encode(try SecureRandom.bytes(count: 24))
        var parameters = [
            "realm": "peer@example.org", "nonce": nonce, "opaque": "0paque", "algorithm": setting.algorithm,
        ]
        parameters["qop"] = setting.qop
        let json = try JSONSerialization.data(withJSONObject: parameters)
        let peer = try InteropPeer.digest.run(
            [
                "authorize", "--user", "Mufasa", "--method", "PUT", "--uri", "/dir/index.html?a=1&b=%20", "--requests",
                "3",
            ],
            stdin: Array(json),
            environment: ["DIGEST_PASSWORD": password]
        )
        let theirs = try peer.stdoutLines.map {
            try #require(try AuthenticationChallenge.parse(headerValues: [$0]).first)
        }
        #expect(theirs.count == 3)

        var header =
            #"Digest realm="peer@example.org", nonce="\#(nonce)", opaque="0paque", algorithm=\#(setting.algorithm)"#
        if let qop = setting.qop { header += #", qop="\#(qop)""# }
        let challenge = try #require(try AuthenticationChallenge.parse(headerValues: [header]).first)
        let clientNonces = Mutex(theirs.map { $0[parameter: "cnonce"] ?? "" })
        var session = DigestSession(challenge: try DigestChallenge(challenge)) {
            clientNonces.withLock { $0.removeFirst() }
        }
        for their in theirs {
            let ours = try #require(
                try AuthenticationChallenge.parse(headerValues: [
                    try session.authorization(
                        method: "PUT",
                        uri: "/dir/index.html?a=1&b=%20",
                        user: "Mufasa",
                        password: SecureBytes(Array(password.utf8))
                    )
                ]).first
            )
            for name in ["response", "nc", "cnonce", "qop", "username", "realm", "uri", "nonce", "opaque"] {
                #expect(ours[parameter: name] == their[parameter: name], "\(name)")
            }
            #expect(ours[parameter: "algorithm"]?.lowercased() == setting.algorithm.lowercased())
        }
    }
}
