import Foundation

/// barkd's `WalletTxInfo` (GET /api/v1/onchain/transactions): one transaction of the daemon's
/// on-chain wallet. `onchain_fee_sat` is omitted when unknown; `confirmation` is `null` while
/// the transaction is in the mempool.
public struct BarkdWalletTx: Sendable, Hashable, Codable {
    /// The transaction id.
    public var txid: String
    /// The raw transaction in hex; synthesised from the txid when a scenario leaves it out.
    public var tx: String
    /// `onchain_fee_sat` on the wire.
    public var onchainFeeSat: Int64?
    /// received - sent over wallet-owned outputs: positive in, negative out.
    public var balanceChangeSat: Int64
    /// `confirmation` on the wire.
    public var confirmation: BarkdBlockRef?
    /// `is_cpfp` on the wire.
    public var isCpfp: Bool

    /// A wallet transaction; no confirmation means it is in the mempool.
    public init(
        txid: String, tx: String? = nil, onchainFeeSat: Int64? = nil, balanceChangeSat: Int64,
        confirmation: BarkdBlockRef? = nil, isCpfp: Bool = false
    ) {
        self.txid = txid
        self.tx = tx ?? BarkdWalletTx.syntheticRawTransaction(txid: txid, amount: balanceChangeSat)
        self.onchainFeeSat = onchainFeeSat
        self.balanceChangeSat = balanceChangeSat
        self.confirmation = confirmation
        self.isCpfp = isCpfp
    }

    private enum CodingKeys: String, CodingKey {
        case txid, tx, onchainFeeSat = "onchain_fee_sat", balanceChangeSat = "balance_change_sat", confirmation
        case isCpfp = "is_cpfp"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            txid: try c.decode(String.self, forKey: .txid),
            tx: try c.decodeIfPresent(String.self, forKey: .tx),
            onchainFeeSat: try c.decodeIfPresent(Int64.self, forKey: .onchainFeeSat),
            balanceChangeSat: try c.decode(Int64.self, forKey: .balanceChangeSat),
            confirmation: try c.decodeIfPresent(BarkdBlockRef.self, forKey: .confirmation),
            isCpfp: try c.decodeIfPresent(Bool.self, forKey: .isCpfp) ?? false)
    }

    /// barkd's order: an unknown fee is left out, a missing confirmation is `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(txid, forKey: .txid)
        try c.encode(tx, forKey: .tx)
        try c.encodeIfPresent(onchainFeeSat, forKey: .onchainFeeSat)
        try c.encode(balanceChangeSat, forKey: .balanceChangeSat)
        try c.encode(confirmation, forKey: .confirmation)
        try c.encode(isCpfp, forKey: .isCpfp)
    }

    /// A plausible segwit transaction in hex (version 2, one input, two outputs); its bytes
    /// are not a real transaction of that txid, which no client of this API checks.
    static func syntheticRawTransaction(txid: String, amount: Int64) -> String {
        var random = DeterministicRandom(seed: Fingerprint.of(txid))
        var value = UInt64(max(0, amount.magnitude))
        var amountHex = ""
        for _ in 0..<8 {
            amountHex += String(format: "%02x", UInt8(value & 0xFF))
            value >>= 8
        }
        return "02000000000101" + random.hex(64) + "0100000000fdffffff02" + amountHex
            + "160014" + random.hex(40) + random.hex(16) + "160014" + random.hex(40)
            + "0247304402" + random.hex(136) + "0121" + random.hex(66) + "00000000"
    }
}

/// barkd's `BlockRef`: where a transaction was mined.
public struct BarkdBlockRef: Sendable, Hashable, Codable {
    /// `height` on the wire.
    public var height: Int
    /// `hash` on the wire.
    public var hash: String

    /// A block reference; the hash defaults to the simulated chain's hash at that height.
    public init(height: Int, hash: String? = nil) {
        self.height = height
        self.hash = hash ?? Fingerprint.blockHash(height: height)
    }

    private enum CodingKeys: String, CodingKey { case height, hash }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(height: try c.decode(Int.self, forKey: .height), hash: try c.decodeIfPresent(String.self, forKey: .hash))
    }

}

/// barkd's `UtxoInfo` (GET /api/v1/onchain/utxos); `confirmation_height` is `null` when unconfirmed.
public struct BarkdUtxo: Sendable, Hashable, Codable {
    /// `txid:vout`.
    public var outpoint: String
    /// `amount_sat` on the wire.
    public var amountSat: Int64
    /// `confirmation_height` on the wire.
    public var confirmationHeight: Int?

    /// A UTXO; no confirmation height means unconfirmed.
    public init(outpoint: String, amountSat: Int64, confirmationHeight: Int? = nil) {
        self.outpoint = outpoint
        self.amountSat = amountSat
        self.confirmationHeight = confirmationHeight
    }

    private enum CodingKeys: String, CodingKey {
        case outpoint, amountSat = "amount_sat", confirmationHeight = "confirmation_height"
    }

    /// `confirmation_height` is `null` while unconfirmed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(outpoint, forKey: .outpoint)
        try c.encode(amountSat, forKey: .amountSat)
        try c.encode(confirmationHeight, forKey: .confirmationHeight)
    }
}
