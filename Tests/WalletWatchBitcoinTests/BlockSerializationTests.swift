import Testing
import WalletWatchBitcoin

/// What a simulated chain needs beyond headers: the genesis blocks, merkle branches as Electrum
/// servers send them, BIP34's height push, blocks' bytes, and wtxids and weights.
@Suite struct BlockSerializationTests {
    @Test func genesisBlocksAreTheNetworksOwn() throws {
        // Bitcoin Core's chainparams; ElectrumX's GENESIS_HASH for each.
        #expect(Network.bitcoin.genesisHeader.hashHex == "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f")
        #expect(Network.testnet.genesisHeader.hashHex == "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943")
        #expect(Network.signet.genesisHeader.hashHex == "00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6")
        #expect(Network.regtest.genesisHeader.hashHex == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
        #expect(Network.genesisCoinbase.txid == "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b")
        // The block: header, one transaction, the coinbase's 204 bytes.
        let block = Network.regtest.genesisBlock
        #expect(block.count == 80 + 1 + 204)
        #expect(try BlockHeader(parsing: Array(block.prefix(80))) == Network.regtest.genesisHeader)
        #expect(try RawTransaction(parsing: Array(block.dropFirst(81))) == Network.genesisCoinbase)
    }

    /// The branches ElectrumX sent for block 2473 of protocol-basics' "Status" example.
    @Test func merkleBranchesAreTheServersOwn() throws {
        func bytes(_ hex: String) -> [UInt8] { Array(Hex.decode(hex)!.reversed()) }
        func hex(_ branch: [[UInt8]]) -> [String] { branch.map { Hex.encode($0.reversed()) } }
        let txids = ["9b977e4cc0b2eb44cb5ea2adb30bf6eae892c9a838111031cb49c97d8ad57309",
                     "9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c",
                     "770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30"].map(bytes)
        #expect(hex(BlockHeader.merkleBranch(txids, index: 1))
            == ["9b977e4cc0b2eb44cb5ea2adb30bf6eae892c9a838111031cb49c97d8ad57309", "e7a2891bd8f96488681a596f619de4d88a22d3b08a8aee3b44bbdd913e3e3562"])
        #expect(hex(BlockHeader.merkleBranch(txids, index: 2))
            == ["770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30", "ee43317b1b79a9a6b101df711a26d12a88b1419f63db15161a9fdb587fabae63"])
        #expect(BlockHeader.merkleBranch([txids[0]], index: 0).isEmpty)
    }

    /// `CScript() << n`: small numbers are opcodes, others minimal little-endian with a sign bit.
    @Test func numbersArePushedAsCoreDoes() {
        #expect(Script.push(number: 0) == [0x00])
        #expect(Script.push(number: 1) == [0x51])
        #expect(Script.push(number: 16) == [0x60])
        #expect(Script.push(number: -1) == [0x4f])
        #expect(Script.push(number: 17) == [0x01, 0x11])
        #expect(Script.push(number: 127) == [0x01, 0x7f])
        #expect(Script.push(number: 128) == [0x02, 0x80, 0x00])
        #expect(Script.push(number: 255) == [0x02, 0xff, 0x00])
        #expect(Script.push(number: 256) == [0x02, 0x00, 0x01])
        #expect(Script.push(number: -128) == [0x02, 0x80, 0x80])
        // Block 870,000's BIP34 height.
        #expect(Script.push(number: 870_000) == [0x03, 0x70, 0x46, 0x0d])
    }

    /// The first transaction of the "Status" example, with witnesses: its txid hashes the bytes
    /// without them, its wtxid all of them, and its weight counts witness bytes once.
    @Test func witnessesCountOnceInWeightAndMakeTheWtxid() throws {
        let hex = "0200000000010147a332c544c49d66a9a7c3f65e420e209b8fbfef4826a2d636c50bbd61c3c9a60000000000fdffffff02784a4c00000000001600147bcf38d8a69071c21abbfe0532cb6aeacaf5c29440a5ae02000000001600149f9aa3795e57c535d2f7b160ff023804c60fca6e02473044022020fd51935d101b3bfcf169af182a2ca189407597d8f1868ca55eecae6c58fd0402205adc117093a4329dde60b9b9c579c56c1699129c6be37a581bbd03e851d36962012103c3172a9f8820681c62b8bf28961988a4642b33f4920b9da14b06965c7fff83fda8090000"
        let raw = try RawTransaction(hex: hex)
        #expect(raw.txid == "9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c")
        #expect(raw.wtxid != raw.txid)
        let total = hex.count / 2, base = try #require(raw.serializedWithoutWitness).count
        #expect(raw.weight == base * 3 + total)
        #expect(total - base == 2 + 1 + 1 + 71 + 1 + 33)
        var legacy = raw
        legacy.inputs[0].witness = []
        #expect(legacy.wtxid == legacy.txid)
    }

    @Test func aBlockIsItsHeaderAndItsTransactions() throws {
        let coinbase = try #require(Network.genesisCoinbase.serialized)
        let block = Network.regtest.genesisHeader.block(withTransactions: [coinbase, coinbase])
        #expect(block.count == 80 + 1 + 2 * coinbase.count)
        #expect(block[80] == 2)
    }
}
