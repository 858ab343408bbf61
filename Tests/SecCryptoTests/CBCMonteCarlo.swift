import SecCrypto

/// The CBC Monte Carlo inner loop of AESVS (AES) and TMOVS (Triple DES). A record gives the key, the IV
/// and the first input block; the expected value is the output block of the last inner iteration.
///
/// In CBC, CT[j] = E(PT[j] ⊕ CV) and PT[j] = D(CT[j]) ⊕ CV with CV the previous ciphertext block (the IV
/// at first) — exactly what one `CipherStream` without padding computes block after block. The rules
/// differ only in the next input block.
enum CBCMonteCarlo {
    enum Feedback {
        /// Input[j+1] = IV when j = 0, else Output[j-1]: AESVS in both directions, TMOVS encryption.
        case outputBeforeLast
        /// Input[j+1] = Output[j]: TMOVS decryption.
        case lastOutput
    }

    /// Runs `iterations` blocks through `stream`, a new CBC stream with `padding: .none` keyed with the
    /// record's key and `iv`, and returns the last output block.
    static func lastOutput(
        of stream: CipherStream,
        iv: [UInt8],
        firstInput: [UInt8],
        iterations: Int,
        feedback: Feedback
    ) -> [UInt8] {
        let blockCount = stream.algorithm.blockByteCount
        // Raw buffers allocated once: TMOVS alone runs 24 million blocks, and a debug build is slow
        // enough per block that array copies and closures would double the time.
        let storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: 2 * blockCount + stream.outputCapacity(forInputCount: blockCount),
            alignment: 16
        )
        defer { storage.deallocate() }
        var input = UnsafeMutableRawBufferPointer(rebasing: storage[0..<blockCount])
        // Output[j-1]
        var previousOutput = UnsafeMutableRawBufferPointer(rebasing: storage[blockCount..<(2 * blockCount)])
        let output = UnsafeMutableRawBufferPointer(rebasing: storage[(2 * blockCount)...])
        let outputBlock = UnsafeRawBufferPointer(rebasing: output[0..<blockCount])
        input.copyBytes(from: firstInput)
        previousOutput.copyBytes(from: iv)  // Output[-1] = IV, as the rule for Input[1] has it
        for _ in 0..<iterations {
            _ = stream.update(UnsafeRawBufferPointer(input), into: output)
            switch feedback {
            case .outputBeforeLast:
                swap(&input, &previousOutput)
                previousOutput.copyMemory(from: outputBlock)
            case .lastOutput:
                input.copyMemory(from: outputBlock)
            }
        }
        return Array(outputBlock)
    }
}
