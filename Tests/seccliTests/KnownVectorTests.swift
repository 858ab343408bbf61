import Foundation
import TestSupport
import Testing

/// The worked examples of "Professional iOS Network Programming" (Wrox, 2012), through the CLI,
/// each also confirmed by openssl so a typo in a constant cannot hide.
@Suite("seccli: book vectors")
struct KnownVectorTests {
    struct DigestVector: Sendable, CustomTestStringConvertible {
        var algorithm: Algorithm
        var hex: String
        var testDescription: String { algorithm.rawValue }
    }

    static let message = "test string"
    static let digests: [DigestVector] = [
        .init(algorithm: .md5, hex: "6f8db599de986fab7a21625b7916589c"),
        .init(algorithm: .sha1, hex: "661295c9cbf9d6b2f6428414504a8deed3020641"),
        .init(algorithm: .sha256, hex: "d5579c46dfcc7f18207013e65b44e4cb4e2c2298f4ac457ba8f82743f31e930b"),
    ]

    @Test("digest of \"test string\" from a file and from stdin", arguments: digests)
    func digest(_ vector: DigestVector) throws {
        let bytes = Array(Self.message.utf8)
        #expect(try Tools.opensslHex([vector.algorithm.opensslOption], stdin: bytes) == vector.hex)

        let fromStdin = try Tools.seccli(["hash", "-a", vector.algorithm.rawValue], stdin: bytes)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdoutText == "\(vector.hex)  -\n")

        try withScratch { dir in
            try dir.write("message.txt", bytes)
            let fromFile = try Tools.seccli(["hash", "-a", vector.algorithm.rawValue, "message.txt"], in: dir)
            #expect(fromFile.status == 0)
            #expect(fromFile.stdoutText == "\(vector.hex)  message.txt\n")
        }
    }

    @Test("HMAC-SHA256 of the book's request with its raw key, printed and verified")
    func hmacSHA256() throws {
        let data = Array("123443212300.002012-12-25 00:00:00".utf8)
        let key = "065a62448fb75fce3764dcbe68f9908d"
        let expected = "51e66ca8fd8eb4bbe02fc6421e0dda1deb94f0c9518996a55bc7a4c242f1c8a9"
        #expect(try Tools.opensslHex(["-sha256", "-hmac", key], stdin: data) == expected)

        let printed = try Tools.seccli(
            ["hmac", "-a", "sha256", "--key", "env:BOOK_KEY"],
            stdin: data,
            environment: ["BOOK_KEY": key]
        )
        #expect(printed.status == 0)
        #expect(printed.stdoutText == "\(expected)  -\n")

        try withScratch { dir in
            try dir.write("request.txt", data)
            try dir.write("key.txt", key + "\n")
            let verified = try Tools.seccli(
                ["hmac", "--key", "file:key.txt", "--verify", expected, "request.txt"],
                in: dir
            )
            #expect(verified.status == 0)
            #expect(verified.stderr.isEmpty)
        }
    }
}
