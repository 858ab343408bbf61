import ArgumentParser
import SecKit

/// `seccli pin --identity NAME`: a client identity stored with `seccli identity import`, read from
/// the store that `SECCLI_BACKEND` (and for the file backend `SECCLI_STORE_FILE`,
/// `SECCLI_STORE_PASSWORD`) names, as `cred` and `identity` find it without options.
struct StoredIdentityOptions: ParsableArguments {
    @Option(
        name: .customLong("identity"),
        help: ArgumentHelp("Client identity stored with 'seccli identity import'.", valueName: "name")
    )
    var name: String?

    /// The stored identity, loaded and checked; nil when none was named.
    func identity() throws -> ClientIdentity? {
        guard let name else { return nil }
        // No store options of its own (pin's --timeout is the connection's): the defaults and the environment.
        return try StoreOptions.parse([]).identityStore().identity(named: name)
    }
}
