import WalletWatchCore

extension WalletSync {
    /// An address's activity from its whole history; nil when a transaction's side adds up
    /// beyond the 21 million BTC that can exist, or its lifetime sums leave Int64 (no real
    /// history comes near). Never traps, whatever a server sent.
    public static func activity(of address: String, in transactions: [ChainTransaction]) -> AddressActivity? {
        var activity = AddressActivity()
        for transaction in transactions {
            guard let received = BitcoinSupply.sum(transaction.outputs.lazy.filter { $0.address == address }.map(\.value)),
                  let sent = BitcoinSupply.sum(transaction.inputs.lazy.filter { $0.address == address }.map(\.value))
            else { return nil }
            if transaction.confirmed {
                // What an address received over its life may exceed the supply (the same coins
                // come back): only Int64 bounds these.
                let funded = activity.funded.addingReportingOverflow(received)
                let spent = activity.spent.addingReportingOverflow(sent)
                guard !funded.overflow, !spent.overflow else { return nil }
                activity.chainTxCount += 1
                activity.funded = funded.partialValue
                activity.spent = spent.partialValue
            } else {
                guard let delta = BitcoinSupply.add(activity.mempoolDelta, received - sent) else { return nil }
                activity.mempoolTxCount += 1
                activity.mempoolDelta = delta
            }
        }
        return activity
    }

    /// When an address was first used: its oldest confirmed transaction's block time, or now
    /// for one seen in the mempool only; nil when it has no transaction.
    public static func firstUse(_ transactions: [ChainTransaction], now: Instant) -> Instant? {
        if let oldest = transactions.compactMap(\.blockTime).min() { return Instant(millisecondsSinceEpoch: oldest * 1000) }
        return transactions.isEmpty ? nil : now
    }

    /// What a pass stores: every watched address, every transaction once with its amount for the
    /// whole wallet, the receive chain's receipts and the balance.
    func outcome(window: Window, readings: [String: ScriptReading], stored: [WalletAddress], requests: Int, roundTrips: Int?,
                 tipHeight: Int64?, records: ChainRecords) throws -> Outcome {
        let addresses = window.addresses
        let walletAddresses = Set(addresses.map(\.address))
        let receiving = Set(addresses.filter { $0.chain == .receive }.map(\.address))
        var byTxid: [String: ChainTransaction] = [:]
        var order: [String] = []
        for address in addresses {
            for transaction in readings[address.address]?.transactions ?? [] {
                if let seen = byTxid[transaction.txid] {
                    // The same transaction read twice in one pass: the confirmed reading is the later.
                    if transaction.confirmed && !seen.confirmed { byTxid[transaction.txid] = transaction }
                } else {
                    byTxid[transaction.txid] = transaction
                    order.append(transaction.txid)
                }
            }
        }
        var receipts: [WalletReceipt] = []
        var observed: [ObservedTransaction] = []
        for txid in order {
            let transaction = byTxid[txid]!
            guard let seen = transaction.observed(for: walletAddresses) else { throw Self.beyondSupply(source, txid) }
            observed.append(seen)
            var paid: [String: Int64] = [:]
            for output in transaction.outputs {
                guard let address = output.address, receiving.contains(address) else { continue }
                guard let sum = BitcoinSupply.add(paid[address, default: 0], output.value) else { throw Self.beyondSupply(source, txid) }
                paid[address] = sum
            }
            receipts += paid.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { WalletReceipt(txid: txid, address: $0.key, amount: $0.value) }
        }
        let previous = Dictionary(stored.map { ($0.address, $0) }) { first, _ in first }
        let changed = Set(addresses.filter { previous[$0.address] != $0 }.map(\.address))
        return Outcome(
            balance: try Self.balance(addresses.map(\.activity), source: source), transactions: observed,
            addresses: addresses, changed: changed, receipts: receipts, requests: requests, roundTrips: roundTrips, tipHeight: tipHeight,
            replacedStoredAddresses: window.replacedStored, records: records, windowCapped: window.capped)
    }

    /// A transaction whose sides add up beyond the supply: the server's answer is wrong.
    static func beyondSupply(_ source: String, _ txid: String) -> WalletSyncFailure {
        WalletSyncFailure(description: "source '\(source)': transaction \(txid) moves more than the 21 million BTC that can exist")
    }
}
