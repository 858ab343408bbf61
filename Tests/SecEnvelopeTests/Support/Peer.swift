import Foundation
import TestSupport

/// What a peer printed and how it exited, as the library tests compare it: standard output as `Data`.
struct PeerResult: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

extension InteropPeer {
    /// Runs the peer with `stdin` (keys in `environment`); its exit status is the test's to judge.
    func callAllowingFailure(_ arguments: [String], stdin: Data, environment: [String: String]) throws -> PeerResult {
        let result = try runAllowingFailure(arguments, stdin: [UInt8](stdin), environment: environment)
        return PeerResult(status: result.status, stdout: Data(result.stdout), stderr: result.stderr)
    }
}
