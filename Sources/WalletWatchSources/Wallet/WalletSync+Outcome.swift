import WalletWatchCore

extension WalletSync {
    /// An address's activity from its whole history; nil when its sums leave Int64 (no real
    /// history comes near: each transaction moves at most 21 million BTC).
    public static func activity(of address: String, in transactions: [ChainTransaction]) -> AddressActivity? {
        var activity = AddressActivity()
        for transaction in transactions {
            // Each side of one transaction is at most 21 million BTC (checked when read).
            let received = transaction.outputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            let sent = transaction.inputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            if transaction.confirmed {
                let funded = activity.funded.addingReportingOverflow(received)
                let spent = activity.spent.addingReportingOverflow(sent)
                guard !funded.overflow, !spent.overflow else { return nil }
                activity.chainTxCount += 1
                activity.funded = funded.partialValue
                activity.spent = spent.partialValue
            } else {
                let delta = activity.mempoolDelta.addingReportingOverflow(received - sent)
                guard !delta.overflow else { return nil }
                activity.mempoolTxCount += 1
                activity.mempoolDelta = delta.partialValue
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
        for txid in order {
            var paid: [String: Int64] = [:]
            for output in byTxid[txid]!.outputs {
                if let address = output.address, receiving.contains(address) { paid[address, default: 0] += output.value }
            }
            receipts += paid.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { WalletReceipt(txid: txid, address: $0.key, amount: $0.value) }
        }
        let previous = Dictionary(stored.map { ($0.address, $0) }) { first, _ in first }
        let changed = Set(addresses.filter { previous[$0.address] != $0 }.map(\.address))
        return Outcome(
            balance: try Self.balance(addresses.map(\.activity), source: source), transactions: order.map { byTxid[$0]!.observed(for: walletAddresses) },
            addresses: addresses, changed: changed, receipts: receipts, requests: requests, roundTrips: roundTrips, tipHeight: tipHeight,
            replacedStoredAddresses: window.replacedStored, records: records)
    }
}
