import SecKit

/// Reads the certificates of a PEM file (every `CERTIFICATE` block, in order) or of a DER file
/// (exactly one certificate); the content decides, not the file name.
enum CertificateFile {
    /// Certificates from `path`; an unreadable or malformed file is a `Failure` with exit code 2 naming the file.
    static func load(_ path: String) throws -> [X509Certificate] {
        let bytes = try SmallFile.read(path)
        do {
            return isPEM(bytes) ? try X509Certificate.load(pem: bytes) : [try X509Certificate(der: bytes)]
        } catch {
            throw Failure(message: "\(path): \(error)", exitCode: .dataError)
        }
    }

    /// True when the bytes hold a PEM boundary (`-----BEGIN `); DER never starts a line with it.
    private static func isPEM(_ bytes: [UInt8]) -> Bool {
        let boundary = Array("-----BEGIN ".utf8)
        guard bytes.count >= boundary.count else { return false }
        return (0...(bytes.count - boundary.count)).contains {
            bytes[$0..<($0 + boundary.count)].elementsEqual(boundary)
        }
    }
}
