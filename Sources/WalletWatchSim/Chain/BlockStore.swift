import WalletWatchBitcoin

/// The headers of a real simulated chain, built lazily from its genesis block: block h's header
/// links to block h-1's hash, commits to the merkle root of its transactions, and meets regtest's
/// proof-of-work target (a nonce is ground, about two tries a block). A change to block h drops
/// the headers from h up (they are rebuilt on the next read); the dropped blocks stay servable by
/// their hash, as a node keeps stale blocks.
struct BlockStore: Sendable {
    /// What a block commits to: its txids (coinbase first, internal byte order) and its time.
    struct Content {
        let txids: [[UInt8]]
        let time: UInt32
    }

    /// Headers of heights 0..<headers.count, and their hashes (internal byte order).
    private(set) var headers: [BlockHeader]
    private var hashes: [[UInt8]]
    private var heightByHash: [String: Int]
    /// Replaced blocks' heights and bytes by their hash (displayed form).
    private var stale: [String: (height: Int, bytes: [UInt8])] = [:]
    private let genesisBlock: [UInt8]

    /// Version bits of a block that signals nothing (BIP9's top bits).
    static let version: Int32 = 0x2000_0000
    /// Regtest's proof-of-work limit, which every header's target is.
    static let bits: UInt32 = 0x207f_ffff

    /// A store holding the genesis block of `network`.
    init(network: Network) {
        let genesis = network.genesisHeader
        headers = [genesis]
        hashes = [genesis.hash]
        heightByHash = [genesis.hashHex: 0]
        genesisBlock = network.genesisBlock
    }

    /// The highest height whose header is built.
    var builtHeight: Int { headers.count - 1 }

    /// Builds the headers up to `height` from what `content` says each block holds.
    mutating func build(through height: Int, content: (Int) -> Content) {
        while headers.count <= height {
            let next = headers.count
            let block = content(next)
            var header = BlockHeader(version: Self.version, previousHash: hashes[next - 1], merkleRoot: BlockHeader.merkleRoot(block.txids),
                                     time: block.time, bits: Self.bits, nonce: 0)
            var hash = header.hash
            // At most the target 0x7fffff * 2^232: the hash's top byte (its last) below 0x7f suffices.
            while hash[31] >= 0x7f {
                header.nonce += 1
                hash = header.hash
            }
            headers.append(header)
            hashes.append(hash)
            heightByHash[header.hashHex] = next
        }
    }

    /// Drops the headers from `height` up, keeping each dropped block servable by hash (with the
    /// transactions' bytes `transactions` gives for its height, as they were).
    mutating func retire(from height: Int, transactions: (Int) -> [[UInt8]]) {
        guard height >= 1, height < headers.count else { return }
        for retired in height..<headers.count {
            let hash = headers[retired].hashHex
            stale[hash] = (retired, headers[retired].block(withTransactions: transactions(retired)))
            heightByHash[hash] = nil
        }
        headers.removeSubrange(height...)
        hashes.removeSubrange(height...)
    }

    /// The height of the block with this hash on the current chain.
    func height(ofHash hash: String) -> Int? { heightByHash[hash] }

    /// The height and bytes of a replaced block.
    func staleBlock(_ hash: String) -> (height: Int, bytes: [UInt8])? { stale[hash] }

    /// The genesis block's bytes.
    var genesis: [UInt8] { genesisBlock }
}
