import Foundation
import SecCrypto

/// One AEAD message for the AEAD peer (`Tests/Peers/aead_peer.py`): what to seal, or what to open.
public struct AEADPeerMessage: Sendable {
    public var nonce: [UInt8]
    public var aad: [UInt8]
    /// The plaintext to seal, or the ciphertext to open.
    public var text: [UInt8]
    /// The tag to open with; empty for a message to seal.
    public var tag: [UInt8]

    public init(nonce: [UInt8], aad: [UInt8], text: [UInt8], tag: [UInt8] = []) {
        self.nonce = nonce
        self.aad = aad
        self.text = text
        self.tag = tag
    }
}

extension InteropPeer {
    /// The AEADs of the peer, by its argument.
    public enum AEADAlgorithm: String, Sendable {
        case aesGCM = "aes-gcm"
        case chaCha20Poly1305 = "chacha20-poly1305"
    }

    /// Python `cryptography` opens `open` and seals `seal` under `key`: the plaintexts it opened (nil
    /// where the tag did not verify), and the ciphertext and tag of each message it sealed.
    public static func aeadBatch(
        _ algorithm: AEADAlgorithm,
        key: [UInt8],
        open: [AEADPeerMessage],
        seal: [AEADPeerMessage]
    ) throws -> (opened: [[UInt8]?], sealed: [(ciphertext: [UInt8], tag: [UInt8])]) {
        let request = try JSONSerialization.data(withJSONObject: [
            "open": open.map {
                [
                    "nonce": Hex.encode($0.nonce), "aad": Hex.encode($0.aad), "ct": Hex.encode($0.text),
                    "tag": Hex.encode($0.tag),
                ]
            },
            "seal": seal.map {
                ["nonce": Hex.encode($0.nonce), "aad": Hex.encode($0.aad), "msg": Hex.encode($0.text)]
            },
        ])
        let result = try InteropPeer.aead.run(
            ["batch", algorithm.rawValue],
            stdin: [UInt8](request),
            environment: ["AEAD_KEY_HEX": Hex.encode(key)]
        )
        guard let reply = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
            let opened = reply["opened"] as? [Any], let sealed = reply["sealed"] as? [[String: String]],
            opened.count == open.count, sealed.count == seal.count
        else {
            throw ProcessRunnerError(description: "aead_peer.py: unexpected reply \(result.stdoutText)")
        }
        return (
            try opened.map { try ($0 as? String).map { try Hex.decode($0) } },
            try sealed.map { (try Hex.decode($0["ct"] ?? "-"), try Hex.decode($0["tag"] ?? "-")) }
        )
    }
}
