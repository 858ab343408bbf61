import SecKit

/// Reads the certificates of a PEM file (every `CERTIFICATE` block, in order) or of a DER file
/// (exactly one certificate); the content decides, not the file name.
enum CertificateFile {
    /// Larger than any certificate bundle (the Mozilla CA bundle is about 220 KB).
    static let maximumSize = 16 * 1024 * 1024

    /// Certificates from `path`; an unreadable, oversized or malformed file is a `Failure` with exit
    /// code 2 naming the file.
    static func load(_ path: String) throws -> [Certificate] {
        var bytes: [UInt8] = []
        do {
            try FileInput.path(path).forEachChunk { chunk throws(CryptoError) in
                guard bytes.count + chunk.count <= maximumSize else {
                    throw .io(path: path, reason: "larger than \(maximumSize / 1024 / 1024) MiB, not a certificate file")
                }
                bytes += chunk
            }
        } catch {
            throw Failure(message: error.description, exitCode: .dataError)
        }
        do {
            return isPEM(bytes) ? try Certificate.load(pem: bytes) : [try Certificate(der: bytes)]
        } catch {
            throw Failure(message: "\(path): \(error)", exitCode: .dataError)
        }
    }

    /// True when the bytes hold a PEM boundary (`-----BEGIN `); DER never starts a line with it.
    private static func isPEM(_ bytes: [UInt8]) -> Bool {
        let boundary = Array("-----BEGIN ".utf8)
        guard bytes.count >= boundary.count else { return false }
        return (0...(bytes.count - boundary.count)).contains { bytes[$0..<($0 + boundary.count)].elementsEqual(boundary) }
    }
}
