import Foundation
import SecCrypto
import SecHTTPAuth
import TestSupport
import Testing

/// RFC 7617 Basic: the RFC's examples, refusals, and `base64` agreeing on the bytes.
@Suite struct BasicAuthorizationTests {
    private func value(_ user: String, _ password: String) throws -> String {
        let bytes = try BasicAuthorization.headerValue(user: user, password: SecureBytes(Array(password.utf8)))
        return String(decoding: bytes.withUnsafeBytes { Array($0) }, as: UTF8.self)
    }

    @Test func rfc7617Examples() throws {
        #expect(try value("Aladdin", "open sesame") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        // §2.1: with charset="UTF-8", "test" and "123£" (U+00A3 as C2 A3).
        #expect(try value("test", "123\u{A3}") == "Basic dGVzdDoxMjPCow==")
    }

    @Test func theCoreutilsBase64ToolAgrees() throws {
        let user = "jäsøn"
        let password = "p@ss: wörd"
        let reference = try ProcessRunner.run("base64", ["-w0"], stdin: Array("\(user):\(password)".utf8))
        #expect(reference.status == 0)
        #expect(try value(user, password) == "Basic " + reference.stdoutText)
    }

    @Test func emptyPasswordIsAllowed() throws {
        #expect(try value("user", "") == "Basic dXNlcjo=")
    }

    @Test(arguments: [("a:b", "pw"), ("a\nb", "pw"), ("user", "pw\r\n"), ("user", "p\u{7F}w")])
    func refusedCredentials(_ user: String, _ password: String) {
        #expect(throws: HTTPAuthError.self) { try value(user, password) }
    }

    @Test func theColonRefusalSaysWhy() {
        #expect(throws: HTTPAuthError.invalidCredentials("a Basic user name cannot contain ':'")) {
            try value("a:b", "pw")
        }
    }
}
