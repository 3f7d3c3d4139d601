import WalletWatchCore

/// A transaction reduced to what walletwatch needs: who paid whom, and its status. Every chain
/// backend produces it: Esplora serves it nearly as it is, an Electrum server's raw transaction
/// is read into it (``ElectrumBackend``).
public struct ChainTransaction: Hashable, Sendable {
    /// An input's spent output or an output: its address (nil for a non-standard script) and
    /// value. An Electrum server sends inputs without what they spend: an input that spends none
    /// of the wallet's outputs (and whose parent was not fetched) reads as no address and 0 sat,
    /// which neither counts for the wallet nor names a counterparty.
    public struct Leg: Hashable, Sendable {
        public var address: String?
        public var value: Int64

        /// A leg paying or spent from `address` (nil: a script without an address).
        public init(address: String?, value: Int64) {
            self.address = address
            self.value = value
        }
    }

    /// A transaction of these legs and status.
    public init(txid: String, inputs: [Leg], outputs: [Leg], fee: Int64?, confirmed: Bool, blockHeight: Int64?, blockTime: Int64?) {
        self.txid = txid
        self.inputs = inputs
        self.outputs = outputs
        self.fee = fee
        self.confirmed = confirmed
        self.blockHeight = blockHeight
        self.blockTime = blockTime
    }

    public var txid: String
    public var inputs: [Leg]
    public var outputs: [Leg]
    public var fee: Int64?
    public var confirmed: Bool
    public var blockHeight: Int64?
    /// Seconds since 1970 of the block, when confirmed.
    public var blockTime: Int64?

    /// The net effect on a set of addresses: what its outputs pay to them minus what its
    /// inputs spend from them (SPEC.md section 4); nil when either side adds up beyond the 21
    /// million BTC that can exist (a server's answer no real transaction gives).
    public func amount(for addresses: Set<String>) -> Int64? {
        guard let received = BitcoinSupply.sum(outputs.lazy.filter { $0.address.map(addresses.contains) == true }.map(\.value)),
              let spent = BitcoinSupply.sum(inputs.lazy.filter { $0.address.map(addresses.contains) == true }.map(\.value))
        else { return nil }
        return received - spent
    }

    /// As a transaction of the asset that owns `addresses` (nil when its amount cannot be, see
    /// ``amount(for:)``). The date is the block time; a transaction still in the mempool is
    /// dated when first seen (by the ingest). The counterparty is stored and shown: its
    /// invisible characters are spelled out.
    public func observed(for addresses: Set<String>) -> ObservedTransaction? {
        guard let amount = amount(for: addresses) else { return nil }
        let counterparty = amount < 0
            ? outputs.first { $0.address.map(addresses.contains) == false }?.address
            : inputs.first { $0.address.map(addresses.contains) == false }?.address
        return ObservedTransaction(
            txid: txid, amount: Int128(amount), type: .onchain, status: confirmed ? .confirmed : .pending,
            date: blockTime.map { Instant(millisecondsSinceEpoch: $0 * 1000) }, fee: fee.map { Int128($0) }, counterparty: counterparty.map(JSONReader.printable))
    }
}
