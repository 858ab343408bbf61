import Testing

extension Tag {
    /// Tests that take seconds rather than milliseconds (for example PBKDF2 with 16,777,216 iterations).
    /// They run by default; the tag lets a quick local run leave them out.
    @Tag static var slow: Self
}
