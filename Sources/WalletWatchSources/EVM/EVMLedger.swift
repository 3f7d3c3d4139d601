import WalletWatchCore

/// Turns what a pass found into ledger rows: one per transaction and asset, its net effect on
/// the watched addresses together (SPEC.md section 26).
///
/// - the coin: the value a watched address sent or received at the top level, plus internal
///   transfers (value a contract moved), only when the transaction succeeded; minus the fee
///   (gasUsed x effectiveGasPrice + l1Fee) when a watched address sent it, which a failed
///   transaction pays too;
/// - a token: its Transfer events to and from the watched addresses;
/// - no row where the net effect is zero and no fee was paid (a token moved between two watched
///   addresses by a contract, a transfer to oneself pays its fee and so makes a row);
/// - status from the receipt's block: confirmed at or below the confirmation block.
struct EVMLedger {
    let watch: EVMWatch
    let findings: EVMHistoryFindings
    let receipts: [String: EVMReceipt]
    let confirmedBlock: Int64

    func rows(for asset: EVMAssetKey) -> [EVMLedgerRow] {
        let watched = Set(watch.addresses)
        var rows: [EVMLedgerRow] = []
        switch asset {
        case .native:
            var internals: [String: [EVMInternalTransfer]] = [:]
            for (key, transfer) in findings.internals.sorted(by: { $0.key.position < $1.key.position }) { internals[key.hash, default: []].append(transfer) }
            for hash in findings.hashes.sorted() {
                guard let receipt = receipts[hash] else { continue }  // not in the chain (any more)
                var amount: Int128 = 0
                var fee: Int128? = nil
                var counterparty: String? = nil
                if watched.contains(receipt.from) {
                    fee = receipt.fee
                    amount -= receipt.fee
                }
                if receipt.succeeded {
                    if let record = findings.transactions[hash] {
                        if watched.contains(record.from) { amount -= record.value }
                        if let to = record.to, watched.contains(to) { amount += record.value }
                        counterparty = watched.contains(record.from) ? record.to?.checksummed : record.from.checksummed
                    }
                    for transfer in internals[hash] ?? [] {
                        if watched.contains(transfer.from) { amount -= transfer.value }
                        if watched.contains(transfer.to) {
                            amount += transfer.value
                            if counterparty == nil || !watched.contains(receipt.from) { counterparty = transfer.from.checksummed }
                        }
                    }
                }
                guard amount != 0 || fee != nil else { continue }
                rows.append(row(hash, receipt: receipt, amount: amount, fee: fee, counterparty: counterparty))
            }
        case .token(let contract):
            var byHash: [String: [EVMTokenTransfer]] = [:]
            for (key, transfer) in findings.tokenTransfers.sorted(by: { $0.key.position < $1.key.position }) where transfer.contract == contract {
                byHash[key.hash, default: []].append(transfer)
            }
            for (hash, transfers) in byHash.sorted(by: { $0.key < $1.key }) {
                guard let receipt = receipts[hash], receipt.succeeded else { continue }
                var amount: Int128 = 0
                var counterparty: String? = nil
                for transfer in transfers {
                    if watched.contains(transfer.from) { amount -= transfer.amount }
                    if watched.contains(transfer.to) { amount += transfer.amount }
                    if counterparty == nil {
                        counterparty = watched.contains(transfer.from) ? transfer.to.checksummed : transfer.from.checksummed
                    }
                }
                guard amount != 0 else { continue }
                rows.append(row(hash, receipt: receipt, amount: amount, fee: nil, counterparty: counterparty))
            }
        }
        return rows
    }

    private func row(_ hash: String, receipt: EVMReceipt, amount: Int128, fee: Int128?, counterparty: String?) -> EVMLedgerRow {
        let seconds = findings.blockTimes[receipt.blockNumber]
        return EVMLedgerRow(block: receipt.blockNumber, observed: ObservedTransaction(
            txid: watch.txid(hash), amount: amount, type: .onchain,
            status: receipt.blockNumber <= confirmedBlock ? .confirmed : .pending,
            date: seconds.map { Instant(millisecondsSinceEpoch: $0 * 1000) }, fee: fee, counterparty: counterparty))
    }
}

/// A ledger row with the block it was found in.
struct EVMLedgerRow: Sendable {
    let block: Int64
    let observed: ObservedTransaction
    var txid: String { observed.txid }
}
