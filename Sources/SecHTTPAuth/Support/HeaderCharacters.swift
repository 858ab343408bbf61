/// CTL of RFC 5234: bytes 0x00-0x1F and 0x7F, which no credential or header value may carry.
func isControlCharacter(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

/// ASCII letters and digits, the core of every character class of the HTTP grammar.
func isAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        true
    default: false
    }
}
