import SecCrypto
import TestSupport

/// A key of `byteCount` random bytes (TestSupport's `randomBytes`).
func randomKey(_ byteCount: Int) -> SymmetricKey {
    SymmetricKey(data: randomBytes(byteCount))
}
