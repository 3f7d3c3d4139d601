import Foundation
import Testing
import TestSupport
import WalletWatchCore

/// walletwatch's Keccak-256 beside eth-hash (the Ethereum Foundation's, installed with web3.py
/// in `.build/python-evm`) for every input length from 0 to 3 x 136 + 1 bytes: each length
/// crosses the sponge's block boundary differently, where a padding mistake would show.
@Suite("EVM: Keccak-256 beside eth-hash")
struct EVMKeccakConformanceTests {
    @Test("the same digest as eth-hash for inputs of 0 to 409 bytes")
    func sameAsEthHash() throws {
        let lengths = 0...409
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EVMNode.pythonPath)
        process.arguments = ["-c", """
            from eth_hash.auto import keccak
            for n in range(\(lengths.lowerBound), \(lengths.upperBound + 1)):
                print(keccak(bytes((i * 7 + 3) % 256 for i in range(n))).hex())
            """]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let expected = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(expected.count == lengths.count, "eth-hash printed \(expected.count) digests")
        for (length, digest) in zip(lengths, expected) {
            let input = (0..<length).map { UInt8((($0 * 7) + 3) % 256) }
            let ours = Keccak256.hash(input).map { String(format: "%02x", $0) }.joined()
            #expect(ours == digest, "length \(length)")
        }
    }
}
