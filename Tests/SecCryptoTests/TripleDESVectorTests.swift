import SecCrypto
import TestSupport
import Testing

/// NIST CAVP TMOVS known-answer and multi-block files, and NSS's CAVS TDES Monte Carlo files: raw CBC.
@Suite struct TripleDESVectorTests {
    /// K1, K2 and K3: `KEY1`/`KEY2`/`KEY3`, or one `KEYs` used for all three (the KAT files).
    private static func keys(_ record: CAVPRecord) throws -> [[UInt8]] {
        if record.fields["KEYs"] != nil {
            return Array(repeating: try record.hex("KEYs"), count: 3)
        }
        return [try record.hex("KEY1"), try record.hex("KEY2"), try record.hex("KEY3")]
    }

    /// Runs the record in its direction through the one-shot API and returns that direction.
    private static func check(
        _ record: CAVPRecord,
        key: [UInt8],
        keying: Insecure.TripleDES.Keying
    ) throws -> CipherStream.Direction {
        let key = SymmetricKey(data: key)
        let iv = try record.hex("IV")
        let direction = try record.direction()
        let input = try record.hex(direction.cavpFields.input)
        let output =
            switch direction {
            case .encrypt: try Insecure.TripleDES.CBC.encrypt(input, using: key, iv: iv, keying: keying, padding: .none)
            case .decrypt: try Insecure.TripleDES.CBC.decrypt(input, using: key, iv: iv, keying: keying, padding: .none)
            }
        #expect(
            Hex.encode(output) == (try record.hexString(direction.cavpFields.output)),
            "\(record.location), \(keying)"
        )
        return direction
    }

    /// Every file as three-key Triple DES, K1 ‖ K2 ‖ K3 (K ‖ K ‖ K for `KEYs`).
    @Test(arguments: [
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCMMT1.rsp", cases: 20),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCMMT2.rsp", cases: 20),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCMMT3.rsp", cases: 20),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCinvperm.rsp", cases: 128),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCpermop.rsp", cases: 64),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCsubtab.rsp", cases: 38),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCvarkey.rsp", cases: 112),
        VectorFile("nist-cavp/ciphers/3DES/CBC/TCBCvartext.rsp", cases: 128),
    ])
    func knownAnswer(_ file: VectorFile) throws {
        let records = try TestVectors.cavpRecords(file.path)
        var directions: [CipherStream.Direction: Int] = [:]
        for record in records {
            directions[
                try Self.check(record, key: try Self.keys(record).reduce([], +), keying: .threeKey),
                default: 0
            ] += 1
        }
        #expect(records.count == file.cases)
        #expect(directions == [.encrypt: file.cases / 2, .decrypt: file.cases / 2])
    }

    /// TCBCMMT2 has K3 = K1, so two-key Triple DES with K1 ‖ K2 gives the same answers.
    @Test func twoKeyMMT2() throws {
        let records = try TestVectors.cavpRecords("nist-cavp/ciphers/3DES/CBC/TCBCMMT2.rsp")
        for record in records {
            let keys = try Self.keys(record)
            #expect(keys[0] == keys[2], "\(record.location): K3 differs from K1")
            _ = try Self.check(record, key: keys[0] + keys[1], keying: .twoKey)
        }
        #expect(records.count == 20)
    }

    /// TMOVS Monte Carlo, 10,000 inner iterations per record, each record checked on its own. Unlike
    /// AESVS, decryption feeds each output straight back as the next input.
    @Test(
        .tags(.slow),
        arguments: [
            VectorFile("nist-cavs-nss/TDES-CBC/TCBCMonte1.fax", cases: 800),
            VectorFile("nist-cavs-nss/TDES-CBC/TCBCMonte2.fax", cases: 800),
            VectorFile("nist-cavs-nss/TDES-CBC/TCBCMonte3.fax", cases: 800),
        ],
        [CipherStream.Direction.encrypt, .decrypt]
    )
    func monteCarlo(_ file: VectorFile, _ direction: CipherStream.Direction) throws {
        let records = try TestVectors.cavpRecords(file.path).filter { try $0.direction() == direction }
        for record in records {
            let iv = try record.hex("IV")
            let stream = try CipherStream(
                .tripleDESCBC,
                direction,
                key: SymmetricKey(data: try Self.keys(record).reduce([], +)),
                iv: iv,
                padding: .none
            )
            let output = CBCMonteCarlo.lastOutput(
                of: stream,
                iv: iv,
                firstInput: try record.hex(direction.cavpFields.input),
                iterations: 10_000,
                feedback: direction == .encrypt ? .outputBeforeLast : .lastOutput
            )
            #expect(Hex.encode(output) == (try record.hexString(direction.cavpFields.output)), "\(record.location)")
        }
        #expect(records.count == file.cases / 2)
    }
}
