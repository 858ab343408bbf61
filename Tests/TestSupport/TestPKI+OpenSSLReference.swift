import Foundation

extension TestPKI {
    /// `sha256/<base64>` of the public key of the certificate file `certificate`, as the openssl CLI
    /// computes it (the RFC 7469 recipe).
    public func opensslPublicKeyPin(_ certificate: String) throws -> String {
        let digest = try shell(
            "openssl x509 -in \(certificate) -pubkey -noout | openssl pkey -pubin -outform DER"
                + " | openssl dgst -sha256 -binary | openssl base64 -A"
        )
        return "sha256/" + digest.stdoutText
    }

    /// The `subject` or `issuer` of the certificate file `certificate` in RFC 2253 form
    /// (`CN=…,O=…`), as `openssl x509 -nameopt RFC2253` prints it.
    public func opensslName(_ field: String, of certificate: String) throws -> String {
        let line = try openssl(["x509", "-in", certificate, "-noout", "-\(field)", "-nameopt", "RFC2253"])
        guard line.hasPrefix("\(field)=") else {
            throw ProcessRunnerError(description: "openssl x509 -\(field) printed \(line)")
        }
        return line.dropFirst(field.count + 1).trimmingCharacters(in: .newlines)
    }

    /// The subject alternative names of the certificate file `certificate` as `openssl x509 -ext
    /// subjectAltName` lists them (`DNS:localhost`, `IP Address:127.0.0.1`).
    public func opensslSubjectAlternativeNames(_ certificate: String) throws -> [String] {
        let lines = try openssl(["x509", "-in", certificate, "-noout", "-ext", "subjectAltName"])
            .split(separator: "\n").dropFirst()
        return lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
