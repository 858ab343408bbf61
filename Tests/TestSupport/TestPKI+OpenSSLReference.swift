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
}
