import SecCrypto
import SecHTTPAuth
import Synchronization
import TestSupport
import Testing

/// The RFC 7616 §3.9 examples, the session's nonce count and stale handling, and the choice of
/// the strongest challenge.
@Suite struct DigestKnownAnswerTests {
    static let rfcChallenges = [
        #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
        #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
    ]
    static let mufasa = SecureBytes(Array("Circle of Life".utf8))

    /// A session that uses `clientNonces` in order.
    static func session(_ header: String, clientNonces: [String]) throws -> DigestSession {
        let challenge = try #require(try AuthenticationChallenge.parse(headerValues: [header]).first)
        let queue = Mutex(clientNonces)
        return DigestSession(challenge: try DigestChallenge(challenge)) { queue.withLock { $0.removeFirst() } }
    }

    static func parameters(of authorization: String) throws -> AuthenticationChallenge {
        let parsed = try AuthenticationChallenge.parse(headerValues: [authorization])
        #expect(parsed.count == 1 && parsed[0].hasScheme("Digest"))
        return try #require(parsed.first)
    }

    @Test(arguments: [
        (0, "SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        (1, "MD5", "8ca523f5e9506fed4657c9700eebdbec"),
    ])
    func rfc7616Section391(_ index: Int, _ algorithm: String, _ response: String) throws {
        var session = try Self.session(
            Self.rfcChallenges[index],
            clientNonces: ["f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"]
        )
        let value = try session.authorization(
            method: "GET",
            uri: "/dir/index.html",
            user: "Mufasa",
            password: Self.mufasa
        )
        #expect(
            value == """
                Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", \
                algorithm=\(algorithm), nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, \
                cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="\(response)", \
                opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
                """
        )
    }

    static let jason =
        #"Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=true"#

    /// §3.9.2 with the user hash and response of erratum 4897 (the RFC's printed values are not
    /// SHA-512/256 of its inputs).
    @Test func rfc7616Section392UserhashWithErratum4897() throws {
        var session = try Self.session(Self.jason, clientNonces: ["NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v"])
        let value = try session.authorization(
            method: "GET",
            uri: "/doe.json",
            user: "J\u{E4}s\u{F8}n Doe",
            password: SecureBytes(Array("Secret, or not?".utf8))
        )
        let fields = try Self.parameters(of: value)
        #expect(fields[parameter: "username"] == "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b")
        #expect(fields[parameter: "userhash"] == "true")
        #expect(fields[parameter: "algorithm"] == "SHA-512-256")
        #expect(fields[parameter: "response"] == "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5")
        #expect(fields[parameter: "opaque"] == "HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS")
        // Python's hashlib (OpenSSL underneath too, but another caller) agrees on the user hash.
        let python = try ProcessRunner.run(
            "python3",
            [
                "-c",
                "import hashlib; print(hashlib.new('sha512_256', 'J\\u00e4s\\u00f8n Doe:api@example.org'.encode()).hexdigest())",
            ]
        )
        #expect(python.stdoutText == "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b\n")
    }

    @Test func withoutUserhashANonASCIIUserGoesInUsernameStar() throws {
        let header = Self.jason.replacingOccurrences(of: "userhash=true", with: "userhash=false")
        var session = try Self.session(header, clientNonces: ["NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v"])
        let value = try session.authorization(
            method: "GET",
            uri: "/doe.json",
            user: "J\u{E4}s\u{F8}n Doe",
            password: SecureBytes(Array("Secret, or not?".utf8))
        )
        #expect(value.hasPrefix(#"Digest username*=UTF-8''J%C3%A4s%C3%B8n%20Doe, realm="api@example.org""#))
        #expect(!value.contains("userhash"))
        let fields = try Self.parameters(of: value)
        #expect(fields[parameter: "response"] == "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5")
    }

    @Test func quotesAndBackslashesInTheUserNameAreEscaped() throws {
        var session = try Self.session(Self.rfcChallenges[0], clientNonces: ["c"])
        let value = try session.authorization(method: "GET", uri: "/", user: #"a"b\c"#, password: Self.mufasa)
        #expect(value.hasPrefix(#"Digest username="a\"b\\c", "#))
        #expect(try Self.parameters(of: value)[parameter: "username"] == #"a"b\c"#)
    }

    @Test func theNonceCountRisesAndAStaleChallengeResetsItWithoutFailing() throws {
        var session = try Self.session(Self.rfcChallenges[0], clientNonces: ["c1", "c2", "c3", "c4"])
        _ = try session.authorization(method: "GET", uri: "/a", user: "Mufasa", password: Self.mufasa)
        let second = try session.authorization(method: "GET", uri: "/b", user: "Mufasa", password: Self.mufasa)
        #expect(try Self.parameters(of: second)[parameter: "nc"] == "00000002")
        #expect(session.nonceCount == 2)

        let refused = try #require(try AuthenticationChallenge.parse(headerValues: [Self.rfcChallenges[0]]).first)
        #expect(try session.handleRechallenge(refused) == .credentialsRejected)
        #expect(session.nonceCount == 2)

        let stale = try #require(
            try AuthenticationChallenge.parse(headerValues: [
                #"Digest realm="http-auth@example.org", qop=auth, algorithm=SHA-256, nonce="fresh", stale=TRUE"#
            ]).first
        )
        #expect(try session.handleRechallenge(stale) == .retryWithFreshNonce)
        #expect(session.nonceCount == 0 && session.challenge.nonce == "fresh")
        let third = try Self.parameters(
            of: try session.authorization(method: "GET", uri: "/c", user: "Mufasa", password: Self.mufasa)
        )
        #expect(third[parameter: "nonce"] == "fresh" && third[parameter: "nc"] == "00000001")
        #expect(third[parameter: "cnonce"] == "c3")
        #expect(third[parameter: "opaque"] == nil)
    }

    /// The session keeps H(user:realm:password) and H(method:uri) from one request to the next: each
    /// response must still be the RFC 7616 formula over that request's own inputs.
    @Test func keptHashesFollowAChangeOfPasswordUserOrTarget() throws {
        let requests = [
            ("GET", "/a", "Mufasa", "Circle of Life"), ("GET", "/a", "Mufasa", "other"),
            ("GET", "/b", "Mufasa", "other"), ("PUT", "/b", "Simba", "other"),
            ("GET", "/a", "Mufasa", "Circle of Life"),
        ]
        var session = try Self.session(Self.rfcChallenges[0], clientNonces: requests.indices.map { "c\($0)" })
        let hex = { (text: String) in DigestHasher.hash(.sha256, data: Array(text.utf8)).hexString }
        for (index, (method, uri, user, password)) in requests.enumerated() {
            let value = try session.authorization(
                method: method,
                uri: uri,
                user: user,
                password: SecureBytes(Array(password.utf8))
            )
            let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
            let count = "0000000\(index + 1)"
            let ha1 = hex("\(user):http-auth@example.org:\(password)")
            let expected = hex("\(ha1):\(nonce):\(count):c\(index):auth:\(hex("\(method):\(uri)"))")
            #expect(try Self.parameters(of: value)[parameter: "response"] == expected, "request \(index + 1)")
        }
    }

    @Test func randomClientNoncesDifferPerRequest() throws {
        let challenge = try #require(try AuthenticationChallenge.parse(headerValues: [Self.rfcChallenges[0]]).first)
        var session = try DigestSession(challenge: challenge)
        let nonces = try (0..<5).map { _ in
            try Self.parameters(
                of: try session.authorization(method: "GET", uri: "/", user: "u", password: Self.mufasa)
            )[parameter: "cnonce"]
        }
        #expect(Set(nonces).count == 5)
        #expect(nonces.allSatisfy { $0?.count == 32 })
        // Client nonces are drawn in blocks; every session (a copy too) draws from the same source.
        var copy = session
        let fromCopy = try copy.authorization(method: "GET", uri: "/", user: "u", password: Self.mufasa)
        let fromOriginal = try session.authorization(method: "GET", uri: "/", user: "u", password: Self.mufasa)
        let last = try [fromCopy, fromOriginal].map { try Self.parameters(of: $0)[parameter: "cnonce"] }
        #expect(Set(nonces + last).count == 7)
    }

    @Test func authIntCoversTheBodyOnlyWhenItIsGiven() throws {
        var session = try Self.session(Self.rfcChallenges[0], clientNonces: ["c1", "c2"])
        let withBody = try Self.parameters(
            of: try session.authorization(method: "POST", uri: "/", user: "u", password: Self.mufasa, body: [1, 2])
        )
        #expect(withBody[parameter: "qop"] == "auth-int")
        // RFC 7616 §3.4.3: H(A2) = H(method:uri:H(body)).
        let hex = { (bytes: [UInt8]) in DigestHasher.hash(.sha256, data: bytes).hexString }
        let ha1 = hex(Array("u:http-auth@example.org:Circle of Life".utf8))
        let ha2 = hex(Array("POST:/:\(hex([1, 2]))".utf8))
        let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
        #expect(withBody[parameter: "response"] == hex(Array("\(ha1):\(nonce):00000001:c1:auth-int:\(ha2)".utf8)))
        let withoutBody = try Self.parameters(
            of: try session.authorization(method: "POST", uri: "/", user: "u", password: Self.mufasa)
        )
        #expect(withoutBody[parameter: "qop"] == "auth")

        let onlyInt = #"Digest realm="r", qop="auth-int", nonce="n""#
        var strict = try Self.session(onlyInt, clientNonces: ["c"])
        #expect(throws: HTTPAuthError.self) {
            try strict.authorization(method: "GET", uri: "/", user: "u", password: Self.mufasa)
        }
    }

    @Test(arguments: [
        (#"Digest nonce="n""#, "Digest challenge without a realm"),
        (#"Digest realm="r""#, "Digest challenge without a nonce"),
        (#"Digest realm="r", nonce="n", algorithm=SHA"#, "Digest algorithm not supported"),
        (#"Digest realm="r", nonce="n", qop="auth-conf""#, "no Digest qop value SecHTTPAuth knows"),
        (#"Basic realm="r""#, "not a Digest challenge"),
    ])
    func unusableChallenges(_ header: String, _ reason: String) throws {
        let challenge = try #require(try AuthenticationChallenge.parse(headerValues: [header]).first)
        #expect(throws: HTTPAuthError.unusableChallenge(reason)) { try DigestChallenge(challenge) }
    }

    @Test(arguments: ["GET /x", "/a b", "/a\"b", "/\u{E9}"])
    func requestTargetsThatCannotBeQuotedAreRefused(_ uri: String) throws {
        var session = try Self.session(Self.rfcChallenges[0], clientNonces: ["c"])
        #expect(throws: HTTPAuthError.self) {
            try session.authorization(method: "GET", uri: uri, user: "u", password: Self.mufasa)
        }
        #expect(session.nonceCount == 0)
    }

    @Test(arguments: [
        (
            [
                "Basic realm=r", #"Digest realm="r", nonce="n", algorithm=MD5"#,
                #"Digest realm="r", nonce="n", algorithm=SHA-512-256-sess"#,
                #"Digest realm="r", nonce="n", algorithm=SHA-256"#,
            ], "SHA-512-256-sess"
        ),
        ([#"Digest realm="r", nonce="n", algorithm=SHA-256"#, "Basic realm=r"], "SHA-256"),
        ([#"Digest realm="r", nonce="n""#, "Basic realm=r"], "MD5"),
        (["Basic realm=r", #"Digest realm="r", nonce="n", algorithm=SHA-1"#, "Newauth x=y"], "Basic"),
        ([#"Digest realm="r", algorithm=SHA-256"#, "basic realm=r"], "Basic"),
    ])
    func theStrongestOfferedChallengeIsChosen(_ headers: [String], _ expected: String) throws {
        let chosen = try #require(
            SupportedChallenge.strongest(in: try AuthenticationChallenge.parse(headerValues: headers))
        )
        #expect((chosen.digestAlgorithm?.rawValue ?? chosen.method.rawValue) == expected)
    }

    @Test func amongEqualsTheServersFirstIsChosenAndUnknownSchemesGiveNothing() throws {
        let equal = try AuthenticationChallenge.parse(headerValues: [
            #"Digest realm="first", nonce="n", algorithm=SHA-256, Digest realm="second", nonce="n", algorithm=SHA-256-sess"#
        ])
        #expect(SupportedChallenge.strongest(in: equal)?.challenge.realm == "first")
        let unknown = try AuthenticationChallenge.parse(headerValues: ["Negotiate abc==", "Bearer realm=x"])
        #expect(SupportedChallenge.strongest(in: unknown) == nil)
    }
}
