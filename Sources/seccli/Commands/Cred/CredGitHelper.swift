import ArgumentParser
import SecKit

#if canImport(Glibc)
import Glibc
#endif

extension SecCLI.CredCommand {
    struct CredGitHelper: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "git-helper",
            abstract: "git's credential helper: get, store and erase git's logins in the keychain.",
            discussion: """
                Set it up with 'git config --global credential.helper "!seccli cred git-helper"' (or the \
                binary's absolute path followed by 'cred git-helper'). git writes key=value lines \
                (gitcredentials(7)) to standard input; 'get' answers with username= and password= lines, or \
                nothing when no item matches. Items are the ones git's own libsecret helper \
                (git-credential-libsecret) stores and finds. When the keyring is locked or there is no \
                Secret Service, 'get' prints nothing and exits with the keychain's code, quietly, so git \
                asks the user instead. 'erase' removes only the items that match what git sent (and its \
                password, when git sends one). Other operations are ignored, as git asks of helpers.
                """
        )

        @Argument(help: ArgumentHelp("get, store or erase.", valueName: "operation"))
        var operation: String

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if store.passwordReadsStandardInput {
                throw ValidationError(
                    "git writes the credential to standard input: give --store-password another source"
                )
            }
        }

        func run() throws {
            switch operation {
            case "get":
                do {
                    try get(try GitCredentialInput.read())
                } catch {
                    // git asks the user (or the next helper) when a helper answers nothing; a message
                    // would only clutter its prompt.
                    throw Failure(
                        message: nil,
                        exitCode: (error as? Failure)?.exitCode ?? ExitStatus(error) ?? .checkFailed
                    )
                }
            case "store": try save(try GitCredentialInput.read())
            case "erase": try erase(try GitCredentialInput.read())
            default: return
            }
        }

        /// The newest item that matches, as git's username=/password= lines; nothing when none does.
        /// Without a protocol and host, as git's libsecret helper, nothing is looked up: any login
        /// of the user would match.
        private func get(_ credential: GitCredential) throws {
            guard credential.protocol != nil, credential.host != nil else { return }
            var query = credential.query
            query.includeSecrets = true
            guard let item = try store.open().search(query, timeout: store.timeLimit).first else { return }
            try GitCredentialInput.write(credential.filled(from: item).reply)
        }

        /// Stores a complete credential (protocol, host, user name and password); git sends nothing
        /// else to `store`, and an incomplete one is ignored, as git's libsecret helper does.
        private func save(_ credential: GitCredential) throws {
            guard let identity = credential.identity, let secret = credential.storedSecret else { return }
            try store.open().upsert(
                identity,
                secret: secret,
                attributes: credential.attributes,
                timeout: store.timeLimit
            )
        }

        /// Deletes the matching items; when git sends the password that failed, only items with it.
        private func erase(_ credential: GitCredential) throws {
            guard credential.hasPattern else { return }
            let opened = try store.open()
            var query = credential.query
            query.includeSecrets = credential.password != nil
            for item in try opened.search(query, timeout: store.timeLimit) {
                if let password = credential.password, let secret = item.secret,
                    GitCredential.password(inStoredSecret: secret) != password
                {
                    continue
                }
                do {
                    try opened.delete(item.identity, timeout: store.timeLimit)
                } catch .notFound {
                    continue  // another copy of the same identity, already removed with the first
                }
            }
        }
    }
}

/// git's side of the conversation: the credential it writes to standard input, and the answer.
enum GitCredentialInput {
    /// The description on standard input, up to its empty line (git may keep the pipe open) or
    /// the end; larger than a secret can be is refused.
    static func read() throws -> GitCredential {
        let limit = SecretServiceStore.maximumSecretByteCount
        let newline = UInt8(ascii: "\n")
        var used = 0
        let input = try SecureBytes(count: limit) { (buffer) throws(Failure) in
            while used < limit {
                let count = Glibc.read(STDIN_FILENO, buffer.baseAddress! + used, limit - used)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    throw Failure(
                        message: "cannot read standard input: \(String(cString: strerror(errno)))",
                        exitCode: .dataError
                    )
                }
                if count == 0 { return }
                let searchStart = max(used - 1, 0)
                used += count
                let pairs = zip(buffer[searchStart..<used], buffer[(searchStart + 1)..<used])
                if buffer[0] == newline || pairs.contains(where: { $0 == newline && $1 == newline }) { return }
            }
            throw Failure(
                message: "the git credential on standard input is larger than \(limit) bytes",
                exitCode: .dataError
            )
        }
        return try input.withUnsafeBytes { try GitCredential(parsing: UnsafeRawBufferPointer(rebasing: $0[..<used])) }
    }

    static func write(_ reply: SecureBytes) throws {
        try reply.withUnsafeBytes { try DescriptorOutput.standardOutput().write($0) }
    }
}
