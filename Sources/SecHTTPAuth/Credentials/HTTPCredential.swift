import SecCrypto

/// A user name and password that answer a Basic or Digest challenge (Foundation's `URLCredential`
/// with a user and password). The password is kept in wiped-on-release memory.
public struct HTTPCredential: Sendable, Equatable {
    public let user: String
    public let password: SecureBytes

    /// A credential of `user` with `password`.
    ///
    /// - Parameters:
    ///   - user: the user name.
    ///   - password: the password, kept in memory that is wiped on release.
    public init(user: String, password: SecureBytes) {
        self.user = user
        self.password = password
    }
}
