import SecCrypto

// MARK: Hashes and MACs

func hmacSHA256(messageBytes: Int) -> Benchmark {
    Benchmark(
        name: "hmac-sha256-\(messageBytes)",
        summary: "HMAC<SHA256>.authenticationCode(for:using:), \(messageBytes)-byte message, 32-byte key"
    ) {
        let key = SymmetricKey(data: patternBytes(32, seed: 7))
        let message = patternBytes(messageBytes, seed: 1)
        return Prepared(operation: { HMAC<SHA256>.authenticationCode(for: message, using: key).bytes[0] })
    }
}

func sha256(messageBytes: Int) -> Benchmark {
    Benchmark(name: "sha256-\(messageBytes)", summary: "SHA256.hash(data:), \(messageBytes)-byte message") {
        let message = patternBytes(messageBytes, seed: 1)
        return Prepared(operation: { SHA256.hash(data: message).bytes[0] })
    }
}
