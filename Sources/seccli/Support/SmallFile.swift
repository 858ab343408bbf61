import SecKit

/// Whole-file reads of small inputs (certificates, PKCS#12 bundles), with a size limit.
enum SmallFile {
    /// Far larger than any certificate bundle or PKCS#12 file, and a bound on what a wrong path makes seccli read.
    static let maximumSize = 16 * 1024 * 1024

    /// The bytes of `path`; an unreadable or oversized file is a `Failure` with exit code 2 naming it.
    static func read(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try FileInput.path(path).forEachChunk { chunk throws(FileError) in
                guard bytes.count + chunk.count <= maximumSize else {
                    throw FileError(path: path, reason: "larger than \(maximumSize / 1024 / 1024) MiB")
                }
                bytes += chunk
            }
        } catch {
            throw Failure(message: error.description, exitCode: .dataError)
        }
        return bytes
    }
}
