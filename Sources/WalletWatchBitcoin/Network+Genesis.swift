extension Network {
    /// The genesis block's header on this network. Its hash names the chain: Electrum servers
    /// refuse a node whose block 0 has another (ElectrumX compares it with its coin's
    /// `GENESIS_HASH`), and wallets check it before they trust a server.
    public var genesisHeader: BlockHeader {
        let (time, bits, nonce): (UInt32, UInt32, UInt32) = switch self {
        case .bitcoin: (1_231_006_505, 0x1d00_ffff, 2_083_236_893)
        case .testnet: (1_296_688_602, 0x1d00_ffff, 414_098_458)
        case .signet: (1_598_918_400, 0x1e03_77ae, 52_613_770)
        case .regtest: (1_296_688_602, 0x207f_ffff, 2)
        }
        return BlockHeader(version: 1, previousHash: [UInt8](repeating: 0, count: 32),
                           merkleRoot: Array((Hex.decode(Network.genesisCoinbase.txid ?? "") ?? []).reversed()),
                           time: time, bits: bits, nonce: nonce)
    }

    /// The genesis block's only transaction, the same on every network: 50 BTC to Satoshi's key,
    /// with The Times' headline of 3 January 2009 in its scriptSig. Its output can never be spent,
    /// and Electrum servers do not index it.
    public static let genesisCoinbase: RawTransaction = {
        let headline = Array("The Times 03/Jan/2009 Chancellor on brink of second bailout for banks".utf8)
        let key = Hex.decode("04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f") ?? []
        return RawTransaction(
            version: 1,
            inputs: [RawTransaction.Input(previousTxid: String(repeating: "0", count: 64), previousIndex: 0xffff_ffff,
                                          scriptSig: [0x04, 0xff, 0xff, 0x00, 0x1d, 0x01, 0x04, UInt8(headline.count)] + headline,
                                          sequence: 0xffff_ffff)],
            outputs: [RawTransaction.Output(value: 5_000_000_000, scriptPubKey: [UInt8(key.count)] + key + [Script.opCheckSig])],
            lockTime: 0)
    }()

    /// The genesis block's bytes: its header and its coinbase.
    public var genesisBlock: [UInt8] {
        genesisHeader.block(withTransactions: [Network.genesisCoinbase.serialized ?? []])
    }
}
