import Testing
import WalletWatchBitcoin

/// Block headers: the genesis blocks' headers hash to the hashes ElectrumX checks a daemon
/// against (`GENESIS_HASH` in its coins.py, which Bitcoin Core's chainparams also name), and the
/// merkle root agrees with the branches an Electrum server sent in the protocol's own example.
@Suite struct BlockHeaderTests {
    static let mainnetGenesis = "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c"
    static let regtestGenesis = "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000"

    @Test func genesisHeadersHashToTheKnownHashes() throws {
        let mainnet = try BlockHeader(parsing: try #require(Hex.decode(Self.mainnetGenesis)))
        #expect(mainnet.hashHex == "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f")
        #expect(mainnet.time == 1_231_006_505)
        #expect(mainnet.previousHashHex == String(repeating: "0", count: 64))
        let regtest = try BlockHeader(parsing: try #require(Hex.decode(Self.regtestGenesis)))
        #expect(regtest.hashHex == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
        #expect(regtest.time == 1_296_688_602)
        #expect(Hex.encode(regtest.serialized) == Self.regtestGenesis)
        // The genesis block's one transaction is its merkle root.
        let coinbase = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"
        #expect(Hex.encode(BlockHeader.merkleRoot([Array(Hex.decode(coinbase)!.reversed())]).reversed()) == coinbase)
    }

    @Test func onlyEightyBytesAreAHeader() throws {
        let bytes = try #require(Hex.decode(Self.regtestGenesis))
        #expect(throws: BlockHeaderError(byteCount: 79)) { try BlockHeader(parsing: Array(bytes.dropLast())) }
        #expect(throws: BlockHeaderError(byteCount: 81)) { try BlockHeader(parsing: bytes + [0]) }
        #expect(BlockHeaderError(byteCount: 0).description == "a block header is 80 bytes, not 0")
    }

    /// Block 2473 of the example holds the coinbase 9b97..., 9c42... at position 1 and 770f...
    /// at position 2: the root from the whole list must be the root each branch leads to.
    @Test func theMerkleRootMatchesTheServersBranches() throws {
        func bytes(_ hex: String) -> [UInt8] { Array(Hex.decode(hex)!.reversed()) }
        func hash(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { BlockHeader.merkleRoot([a, b]) }
        let coinbase = bytes("9b977e4cc0b2eb44cb5ea2adb30bf6eae892c9a838111031cb49c97d8ad57309")
        let second = bytes("9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c")
        let third = bytes("770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30")
        let root = BlockHeader.merkleRoot([coinbase, second, third])
        // pos 1: [coinbase, e7a2...]; pos 2: [770f... (itself), ee43...].
        #expect(hash(hash(coinbase, second), bytes("e7a2891bd8f96488681a596f619de4d88a22d3b08a8aee3b44bbdd913e3e3562")) == root)
        #expect(hash(bytes("ee43317b1b79a9a6b101df711a26d12a88b1419f63db15161a9fdb587fabae63"), hash(third, third)) == root)
    }
}
