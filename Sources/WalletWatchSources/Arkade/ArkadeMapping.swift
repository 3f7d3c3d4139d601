import WalletWatchCore

/// The one Ark movement model of Arkade's two faces (SPEC.md section 27): Fulmine's history
/// and an indexer's VTXOs both become transactions of the source's Ark asset, with stable txids
/// `fulmine:<source>:<id>` and `arkd:<source>:<id>`, and an ``ArkBalance`` as barkd's does, so
/// that Rule 1 and everything after ingest treat the three Ark clients alike.
public enum ArkadeMapping {
    public static func fulmineTxid(source: String, id: String) -> String { "fulmine:\(source):\(id)" }
    public static func arkdTxid(source: String, id: String) -> String { "arkd:\(source):\(id)" }

    /// A Fulmine history entry: sent is outgoing, received incoming; a boarding deposit is a
    /// board, pending until a batch settles it (as Fulmine's own page shows it); every other
    /// entry is final: an offchain payment is preconfirmed by the server and spendable at once,
    /// as barkd's arkoor payments are.
    public static func transaction(_ entry: FulmineTransaction, source: String) -> ObservedTransaction {
        let amount = Int128(entry.amount)
        return ObservedTransaction(
            txid: fulmineTxid(source: source, id: entry.id), amount: entry.kind == .sent ? -amount : amount,
            type: entry.boardingTxid.isEmpty ? .ark : .board, status: entry.isPendingBoarding ? .pending : .confirmed,
            date: entry.date, boardTxid: entry.boardingTxid.isEmpty ? nil : entry.boardingTxid)
    }

    /// Fulmine's balance as an Ark balance: `amount` (settled, preconfirmed and recoverable
    /// VTXOs) is spendable; boarding deposits not yet settled are pending boards, shown but not
    /// counted.
    public static func balance(amount: Int64, history: [FulmineTransaction]) -> ArkBalance {
        let boarding = history.filter(\.isPendingBoarding).reduce(Int128(0)) { $0 + Int128($1.amount) }
        return ArkBalance(spendable: amount, pendingLightningSend: 0, claimableLightningReceive: 0, pendingInRound: 0,
                          pendingExit: nil, pendingBoard: Int64(min(boarding, Int128(BitcoinSupply.maximumSats))))
    }

    /// The watched scripts' VTXOs as transactions, netted per transaction that moved them (as
    /// Ark's SDKs build a wallet's history: ts-sdk transactionHistory.ts, go-sdk `vtxosToTxs`):
    /// - a VTXO comes in with the transaction that created it: the Ark transaction of a
    ///   preconfirmed one (its outpoint's txid), the commitment transaction of a batch leaf;
    /// - a spent VTXO goes out with the Ark transaction that spent it (`arkTxid`), or the batch
    ///   that took it (`settledBy`), else its forfeit or checkpoint (`spentBy`);
    /// - an unrolled VTXO left Ark for the chain: an exit of its own;
    /// - a swept VTXO is not a spend (it is recoverable; the stored VTXO says `swept`).
    /// Change coming back in the spending transaction nets against what went out, and a
    /// transaction whose net is zero (a refresh, a payment to oneself) makes no row. Every row is
    /// confirmed: the server has signed what the indexer reports. A row is dated by the earliest
    /// VTXO it created; one that created none (a payment out without change) by when it is first seen.
    public static func transactions(of vtxos: [ArkadeVtxo], source: String) -> [ObservedTransaction] {
        struct Movement { var net: Int128 = 0; var date: Int64?; var exit = false }
        var movements: [String: Movement] = [:]
        var order: [String] = []
        func touch(_ key: String) {
            if movements[key] == nil { movements[key] = Movement(); order.append(key) }
        }
        for vtxo in vtxos {
            let incoming = !vtxo.isPreconfirmed ? vtxo.commitmentTxids.first ?? vtxo.txid : vtxo.txid
            touch(incoming)
            movements[incoming]!.net += Int128(vtxo.amount)
            movements[incoming]!.date = min(movements[incoming]!.date ?? .max, vtxo.createdAt)
            if vtxo.isSpent {
                let outgoing = [vtxo.arkTxid, vtxo.settledBy, vtxo.spentBy].first { !$0.isEmpty } ?? vtxo.outpoint
                touch(outgoing)
                movements[outgoing]!.net -= Int128(vtxo.amount)
            } else if vtxo.isUnrolled {
                touch(vtxo.outpoint)
                movements[vtxo.outpoint]!.net -= Int128(vtxo.amount)
                movements[vtxo.outpoint]!.exit = true
            }
        }
        return order.compactMap { key in
            let movement = movements[key]!
            guard movement.net != 0 else { return nil }
            return ObservedTransaction(
                txid: arkdTxid(source: source, id: key), amount: movement.net, type: movement.exit ? .exit : .ark,
                status: .confirmed, date: movement.date.map { Instant(millisecondsSinceEpoch: $0 * 1000) })
        }
    }

    /// The watched scripts' balance: every VTXO neither spent nor unrolled, swept and expired
    /// ones included (they are recoverable, and Fulmine counts them too).
    public static func balance(of vtxos: [ArkadeVtxo]) -> ArkBalance {
        let total = vtxos.filter { !$0.isSpent && !$0.isUnrolled }.reduce(Int128(0)) { $0 + Int128($1.amount) }
        return ArkBalance(spendable: Int64(min(total, Int128(BitcoinSupply.maximumSats))), pendingLightningSend: 0, claimableLightningReceive: 0,
                          pendingInRound: 0, pendingExit: nil, pendingBoard: 0)
    }
}
