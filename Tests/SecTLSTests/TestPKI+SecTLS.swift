import Foundation
import SecTLS
import TestSupport

extension TestPKI {
    /// The first certificate of `<name>.pem`.
    func certificate(_ name: String) throws -> Certificate { try Certificate.load(pem: try bytes("\(name).pem"))[0] }

    /// The SPKI pin of `<name>.pem`.
    func pin(_ name: String) throws -> Pin { .publicKey(try certificate(name).publicKeyPin) }
}
