/// The collection (keyring) of the Secret Service in which a `SecretServiceStore` keeps the items it
/// writes. Reads, searches and deletes cover every collection whichever is chosen.
public enum SecretServiceCollection: String, Sendable, Hashable, CaseIterable {
    /// The default collection ("login"): items last across sessions and reboots. `upsert` updates
    /// an existing item in whichever collection holds it, and creates new ones here.
    case `default`
    /// The session collection: items that end with the user's session (gnome-keyring keeps them in
    /// memory only), the books' "for this session" persistence. `upsert` keeps the identity's item
    /// here: a copy in another collection is replaced by one in this.
    case session

    /// The alias by which the Secret Service specification names the collection.
    var alias: String { rawValue }
}
