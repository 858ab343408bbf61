import TestSupport
import Testing

@testable import SecIO

/// What docs/SecIO.md says of SecIO's sizes, held to the code.
@Suite("docs/SecIO.md states SecIO's sizes")
struct SecIODocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecIO.md")
    }

    @Test("FileInput's chunk size")
    func chunkSize() throws {
        #expect(
            try page.passage(containing: "`FileInput` is a file")
                .contains("read in \(DocsPage.byteSize(FileInput.chunkSize)) chunks")
        )
    }

    @Test("how many temporary files the signal handler removes")
    func signalCleanupCapacity() throws {
        #expect(
            try page.passage(containing: "The handler is async-signal-safe")
                .contains("table of atomics (\(SignalCleanup.capacity) files at once;")
        )
    }
}
