extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing white space: the Unicode `White_Space` scalars, the set
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` removes. With `keepingNewlines`,
    /// line breaks (U+000A–U+000D, U+0085, U+2028, U+2029) stay, as with `.whitespaces`. Plain Swift:
    /// SecTLS builds on FoundationEssentials, which has no `trimmingCharacters(in:)`.
    func trimmingWhitespace(keepingNewlines: Bool = false) -> String {
        func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.properties.isWhitespace else { return false }
            guard keepingNewlines else { return true }
            return
                !((0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028
                || scalar.value == 0x2029)
        }
        var scalars = self[...].unicodeScalars
        while let first = scalars.first, isTrimmed(first) { scalars.removeFirst() }
        while let last = scalars.last, isTrimmed(last) { scalars.removeLast() }
        return String(scalars)
    }
}
