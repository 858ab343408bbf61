import Foundation
import TestSupport
import Testing

/// What each `seccli cred` command asks of gnome-keyring, counted by `dbus-monitor` on a nested
/// private session bus. gnome-keyring goes through all its items for each search, and again to
/// find the item behind each property read, secret or update, so these counts are what a command
/// costs it as the keyring grows: one `SearchItems` in the common case, one `Get` per property it
/// needs, never an item's `GetAll` (one look-up per property, five) or the collection's (which
/// lists every item).
@Suite(
    "seccli cred: the Secret Service calls of each command",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct CredCallCountTests {
    /// Items of each writer, each the only one of its service, plus two services with several
    /// accounts (`pair`: two, `many`: five, more than a lookup reads one by one).
    static let setup = #"""
        put() { printf %s "$3" | "$SECCLI" cred set --service "$1" --account "$2"; }
        put solo alice one
        put pair alice two
        put pair bob three
        for account in a b c d e; do put many "$account" "many-$account"; done
        put doomed zoe gone
        printf four | secret-tool store --label=tool service tool account carol
        PYTHON_KEYRING_BACKEND=keyring.backends.SecretService.Keyring \
          python3 -c 'import keyring; keyring.set_password("python", "dave", "five")'
        """#

    @Test("get, list, set, delete, delete --all: one SearchItems each, each found item's properties read alone")
    func commonCases() throws {
        let log = try SecretServiceCallLog(
            setup: Self.setup,
            steps: [
                ("get", #""$SECCLI" cred get --service solo --account alice"#),
                ("get_tool", #""$SECCLI" cred get --service tool --account carol"#),
                ("get_python", #""$SECCLI" cred get --service python --account dave"#),
                ("absent", #""$SECCLI" cred get --service nothing --account alice"#),
                ("absent_account", #""$SECCLI" cred get --service solo --account nobody"#),
                ("get_sibling", #""$SECCLI" cred get --service pair --account bob"#),
                ("get_many", #""$SECCLI" cred get --service many --account c"#),
                ("list", #""$SECCLI" cred list --service pair"#),
                ("set", #"printf new | "$SECCLI" cred set --service solo --account alice"#),
                ("set_expiry", #"printf new | "$SECCLI" cred set --service solo --account alice --expires 2099-01-01"#),
                ("set_new", #"printf new | "$SECCLI" cred set --service fresh --account alice"#),
                ("delete", #""$SECCLI" cred delete --service doomed --account zoe"#),
                ("delete_all", #""$SECCLI" cred delete --service many --all"#),
            ]
        )
        let read = ["SearchItems": 1, "Get Item.Attributes": 1, "GetSecrets": 1, "OpenSession": 1]
        for step in ["get", "get_tool", "get_python"] {
            #expect(log.statuses[step] == 0, "\(step)")
            #expect(log.calls[step] == read, "\(step)")
        }
        #expect(log.statuses["absent"] == 10)
        // Nothing found: no session is opened (its Diffie-Hellman exchange would be wasted).
        #expect(log.calls["absent"] == ["SearchItems": 1, "Get Collection.Locked": 1])
        // The other account's item is read (attributes and, in the same round trip, its secret).
        #expect(log.statuses["absent_account"] == 10)
        #expect(log.calls["absent_account"] == read.merging(["Get Collection.Locked": 1]) { $0 + $1 })
        #expect(log.statuses["get_sibling"] == 0)
        #expect(
            log.calls["get_sibling"] == ["SearchItems": 1, "Get Item.Attributes": 2, "GetSecrets": 1, "OpenSession": 1]
        )
        // Five accounts: the searches by `account` and by `username` decide instead.
        #expect(log.statuses["get_many"] == 0)
        #expect(log.calls["get_many"] == read.merging(["SearchItems": 2]) { $0 + $1 })
        #expect(log.statuses["list"] == 0)
        #expect(
            log.calls["list"] == [
                "SearchItems": 1, "Get Item.Attributes": 2, "Get Item.Label": 2, "Get Item.Created": 2,
                "Get Item.Modified": 2,
            ]
        )
        // Writes: libsecret's set-up of its own service proxy and session is left out of the count.
        func written(_ step: String) -> [String: Int]? {
            log.calls[step]?.filter { !["GetAll Service", "OpenSession"].contains($0.key) }
        }
        for step in ["set", "set_expiry", "set_new", "delete", "delete_all"] {
            #expect(log.statuses[step] == 0, "\(step)")
        }
        #expect(written("set") == ["SearchItems": 1, "Get Item.Attributes": 1, "Get Item.Label": 1, "SetSecret": 1])
        #expect(
            written("set_expiry") == [
                "SearchItems": 1, "Get Item.Attributes": 1, "Get Item.Label": 1, "SetSecret": 1,
                "Set Item.Attributes": 1,
            ]
        )
        #expect(written("set_new") == ["SearchItems": 1, "Get Collection.Locked": 1, "CreateItem": 1])
        #expect(written("delete") == ["SearchItems": 1, "Get Item.Attributes": 1, "Delete": 1])
        #expect(log.calls["delete"]?["OpenSession"] == nil, "a delete carries no secret: no session")
        // A group delete: one search, the attributes of what it found (sent together), a Delete each.
        #expect(written("delete_all") == ["SearchItems": 1, "Get Item.Attributes": 5, "Delete": 5])
        #expect(log.calls["delete_all"]?["OpenSession"] == nil)
    }

    @Test("a locked keyring: the searches by account, and the collection's Locked property alone")
    func lockedKeyring() throws {
        let log = try SecretServiceCallLog(
            setup: Self.setup + #"""

                dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
                  org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
                """#,
            steps: [
                ("get", #""$SECCLI" cred get --service solo --account alice"#),
                ("absent", #""$SECCLI" cred get --service nothing --account alice"#),
                ("list", #""$SECCLI" cred list --service pair"#),
            ]
        )
        for step in ["get", "absent", "list"] {
            #expect(log.statuses[step] == 12, "\(step): locked")
        }
        // The common search finds the locked item; the searches by account say it may be this one.
        // No secret is read, so no session is opened.
        #expect(log.calls["get"] == ["SearchItems": 3])
        #expect(log.calls["absent"] == ["SearchItems": 1, "Get Collection.Locked": 1])
        #expect(log.calls["list"] == ["SearchItems": 1])
    }
}
