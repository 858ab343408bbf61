import Testing
import SecCrypto
import SecEnvelope

@Test func smoke() throws {
    let key = SymmetricKey(data: [UInt8](repeating: 7, count: 32))
    for enc in JWE.ContentEncryptionAlgorithm.allCases {
        let k = SymmetricKey(data: [UInt8](repeating: 7, count: enc.keyByteCount))
        let token = try JWE.encrypt(Data("hi".utf8), using: k, contentEncryption: enc)
        print("DIR", enc, token)
        #expect(try JWE.decrypt(token, using: k) == Data("hi".utf8))
    }
    let t2 = try JWE.encrypt(Data("pw".utf8), password: Data("secret".utf8), iterations: 1000)
    print("PBES2", t2)
    #expect(try JWE.decrypt(t2, password: Data("secret".utf8)) == Data("pw".utf8))
    let t3 = try JWE.encrypt(Data("kw".utf8), using: key, keyManagement: .a256KW, contentEncryption: .a128CBCHS256, keyID: "k1")
    print("KW", t3)
    let f = try Fernet(key: "cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=")
    let ft = try f.encrypt(Data("hello".utf8), timestamp: 499162800, iv: Array(0..<16))
    print("FERNET", ft)
    let l = try LegacyEnvelope(encryptionKey: SymmetricKey(data: Array("0123456789abcdef0123456789abcdef".utf8)), macKey: SymmetricKey(data: Array("mackey".utf8)))
    let e = try l.seal(Data(#"{"toAccount":"1","fromAccount":"2","amount":"3","transferDate":"4"}"#.utf8), macInput: .fields(["toAccount","fromAccount","amount","transferDate"]))
    print("LEGACY", String(decoding: e, as: UTF8.self))
}
