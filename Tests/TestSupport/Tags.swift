import Testing

extension Tag {
    /// Tests that take 5 s or more when run alone (`swift test --no-parallel`, on the 2-core CI
    /// machine): PBKDF2 with 16,777,216 iterations, Monte Carlo vectors, many processes or peers per
    /// case, multi-megabyte inputs. They run in every phase. The toolchain's `swift test` (Swift
    /// Testing 6.3.1) cannot select by tag: `--filter` and `--skip` take test names only (a `tag:`
    /// filter is newer), so for now the tag tells readers, and tools that read tags, which they are.
    @Tag public static var slow: Self
}
