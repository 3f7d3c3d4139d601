import WalletWatchBitcoin

/// The coinbase transaction of each simulated block: it pays the block's subsidy to the
/// ``Faucet`` (not the fees: a coinbase that never changes keeps the faucet's coins valid when
/// transactions are added to its block). Its scriptSig starts with the height (BIP34) and carries
/// the block's generation, which a reorg raises so that a replaced block gets a new coinbase and
/// a new hash.
enum Coinbase {
    /// Block `height`'s coinbase in its `generation`-th version.
    static func transaction(height: Int, generation: UInt32, paying script: [UInt8], network: Network) -> RawTransaction {
        let extraNonce = withUnsafeBytes(of: generation.littleEndian) { Array($0) }
        return RawTransaction(
            version: 2,
            inputs: [RawTransaction.Input(previousTxid: String(repeating: "0", count: 64), previousIndex: 0xffff_ffff,
                                          scriptSig: Script.push(number: Int64(height)) + [UInt8(extraNonce.count)] + extraNonce,
                                          sequence: 0xffff_ffff)],
            outputs: [RawTransaction.Output(value: subsidy(height: height, network: network), scriptPubKey: script)],
            lockTime: 0)
    }

    /// The block subsidy at `height`: 50 BTC, halved every 210,000 blocks (every 150 on regtest).
    static func subsidy(height: Int, network: Network) -> Int64 {
        let halvings = height / (network == .regtest ? 150 : 210_000)
        return halvings >= 64 ? 0 : 5_000_000_000 >> halvings
    }
}
