import SecCrypto
import SecHTTPAuth
import Testing

/// RFC 9110 §11 challenges: the RFC's own examples, lists, escapes, token68, and refusals.
@Suite struct ChallengeParserTests {
    private func parse(_ values: String...) throws -> [AuthenticationChallenge] {
        try AuthenticationChallenge.parse(headerValues: values)
    }

    /// A realm is the server's text: errors and protection spaces show it escaped and cut short.
    @Test func aRealmInMessagesIsEscapedAndCut() {
        let failure = HTTPAuthError.authenticationFailed(
            realm: "a\"b \u{1B}[2J\u{202E}evil\u{2028}",
            method: .basic,
            failures: 1
        )
        #expect(
            failure.description
                == #"authentication failed: Basic realm "a\"b \u{1b}[2J\u{202e}evil\u{2028}", 1 credential(s) refused"#
        )
        let long = ProtectionSpace(
            scheme: "https",
            host: "example.org",
            port: 443,
            realm: String(repeating: "r", count: 16_000),
            method: .digest
        )
        #expect(long.description == "https://example.org:443 Digest realm \"\(String(repeating: "r", count: 64))…\"")
    }

    @Test func rfc9110ExampleWithTwoChallengesInOneHeader() throws {
        let challenges = try parse(#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#)
        #expect(challenges.count == 2)
        #expect(challenges[0].scheme == "Newauth")
        #expect(challenges[0].parameters.map(\.name) == ["realm", "type", "title"])
        #expect(challenges[0][parameter: "TITLE"] == #"Login to "apps""#)
        #expect(challenges[0][parameter: "type"] == "1")
        #expect(challenges[1].hasScheme("basic") && challenges[1].realm == "simple")
        #expect(challenges[1].token68 == nil)
    }

    @Test func challengesInSeveralHeaderLinesKeepTheirOrder() throws {
        let challenges = try parse(#"Basic realm="a""#, #"Digest realm="b", nonce="n", Bearer"#)
        #expect(challenges.map(\.scheme) == ["Basic", "Digest", "Bearer"])
        #expect(challenges[2].parameters.isEmpty && challenges[2].token68 == nil)
    }

    @Test func token68AndItsPadding() throws {
        let challenges = try parse(
            "Negotiate YIIBhwYGKwYBBQUCoIIBezCCAX+gMDAuBgkqhkiG9xIBAgIGCSqGSIb3EgECAg==, Basic realm=x"
        )
        #expect(challenges[0].token68 == "YIIBhwYGKwYBBQUCoIIBezCCAX+gMDAuBgkqhkiG9xIBAgIGCSqGSIb3EgECAg==")
        #expect(challenges[0].parameters.isEmpty)
        #expect(challenges[1].realm == "x")
    }

    @Test func whitespaceAroundEqualsAndEmptyListElements() throws {
        let challenges = try parse(" , Digest realm =\t\"r\" ,, nonce= abc ,\t, Basic realm=\"s\" ,")
        #expect(challenges.count == 2)
        #expect(challenges[0][parameter: "realm"] == "r" && challenges[0][parameter: "nonce"] == "abc")
        #expect(challenges[1].realm == "s")
    }

    @Test func quotedPairsUnescapeAndUTF8Survives() throws {
        let challenge = try #require(try parse(#"Basic realm="a\\b\"c\d é""#).first)
        #expect(challenge.realm == #"a\b"cd é"#)
    }

    @Test func emptyHeaderListAndEmptyValuesGiveNoChallenges() throws {
        #expect(try AuthenticationChallenge.parse(headerValues: []).isEmpty)
        #expect(try parse("", " , ,").isEmpty)
    }

    @Test(arguments: [
        (#"Basic realm="unterminated"#, "unterminated quoted string"),
        ("Basic a=b, realm=", "expected a token or a quoted string"),
        ("Basic realm x", "expected '=' after a parameter name"),
        (#"Basic realm="a" "b""#, "expected ',' after a parameter"),
        (#"Basic realm="a", realm="b""#, "parameter repeated"),
        ("Basic\u{1}", "expected a space after the scheme"),
        ("=realm", "expected an authentication scheme"),
        ("Basic realm=\"a\u{7}b\"", "control character in a quoted string"),
        ("Basic realm=\"a\\\u{1}\"", "invalid escape"),
        ("Digest realm=@", "expected a token or a quoted string"),
    ])
    func malformedHeadersAreRefusedWithAReason(_ value: String, _ reason: String) {
        #expect {
            try AuthenticationChallenge.parse(headerValues: [value])
        } throws: { error in
            guard case .malformedChallenge(let message) = error as? HTTPAuthError else { return false }
            return message.contains(reason) && message.contains("at byte")
        }
    }

    @Test func theReasonNeverEchoesTheHeader() {
        let secretish = String(repeating: "Z", count: 200)
        #expect {
            try AuthenticationChallenge.parse(headerValues: ["Basic realm=\"\(secretish)"])
        } throws: { error in
            !String(describing: error).contains("ZZZZ")
        }
    }

    @Test func sizesAreBounded() {
        let long = "Basic realm=\"" + String(repeating: "a", count: 20_000) + "\""
        #expect(throws: HTTPAuthError.malformedChallenge("header line longer than 16384 bytes")) {
            try AuthenticationChallenge.parse(headerValues: [long])
        }
        let many = (0..<40).map { "p\($0)=v" }.joined(separator: ", ")
        #expect(throws: HTTPAuthError.self) { try AuthenticationChallenge.parse(headerValues: ["X " + many]) }
        let lines = Array(repeating: "Basic", count: 33)
        #expect(throws: HTTPAuthError.malformedChallenge("more than 32 header lines")) {
            try AuthenticationChallenge.parse(headerValues: lines)
        }
    }

    /// Random bytes and random mutations of real headers: every input parses or throws the typed
    /// error, never crashes, and whatever parses has schemes and names made of token characters.
    @Test func randomInputsNeverCrash() throws {
        let seeds = [
            #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
            #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#,
            "Negotiate abc==, Basic realm=x",
        ]
        let alphabet = Array(#" ,="\abcXYZ019+/=-é"#.utf8) + [0, 9, 0x7F, 0xFF]
        for round in 0..<3000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(1 + round % 6) {
                let position =
                    Int(try SecureRandom.bytes(count: 2).reduce(0) { $0 * 256 + Int($1) }) % (bytes.count + 1)
                let pick = Int(try SecureRandom.bytes(count: 1)[0])
                switch pick % 3 {
                case 0: bytes.insert(alphabet[pick % alphabet.count], at: position)
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: if position < bytes.count { bytes[position] = alphabet[pick % alphabet.count] }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                for challenge in try AuthenticationChallenge.parse(headerValues: [text]) {
                    #expect(!challenge.scheme.isEmpty && !challenge.scheme.contains(" "))
                    #expect(challenge.parameters.allSatisfy { !$0.name.isEmpty && $0.name == $0.name.lowercased() })
                }
            } catch {
                #expect(String(describing: error).hasPrefix("malformed authentication challenge"))
            }
        }
    }

    @Test func headerNamesFollowTheStatus() {
        #expect(AuthenticationHeaders(statusCode: 401) == .server)
        #expect(AuthenticationHeaders(statusCode: 407)?.challengeHeaderName == "Proxy-Authenticate")
        #expect(AuthenticationHeaders(statusCode: 407)?.authorizationHeaderName == "Proxy-Authorization")
        #expect(AuthenticationHeaders.server.challengeHeaderName == "WWW-Authenticate")
        #expect(AuthenticationHeaders.server.authorizationHeaderName == "Authorization")
        #expect(AuthenticationHeaders(statusCode: 403) == nil)
    }
}
