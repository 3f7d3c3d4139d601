import WalletWatchBitcoin
import WalletWatchCore

extension RawTransaction {
    /// `bytes` read as a transaction that a block could hold and whose amounts can exist: at
    /// most ``RawTransaction/maximumWeight`` weight units (Bitcoin's own limit; a server cannot
    /// make walletwatch keep bigger ones), each output and their sum at most 21 million BTC
    /// (``BitcoinSupply``; a raw output may say up to 2^64 - 1, and sums of such must never
    /// trap). Every transaction an Electrum server sends, or that an earlier pass stored, is
    /// read this way.
    static func bounded(_ bytes: [UInt8]) throws(TransactionRefusal) -> RawTransaction {
        // Weight is at least the size: a longer transaction needs no parsing to be refused.
        guard bytes.count <= maximumWeight else { throw TransactionRefusal(Self.tooHeavy(bytes.count)) }
        let transaction: RawTransaction
        do {
            transaction = try RawTransaction(parsing: bytes)
        } catch {
            throw TransactionRefusal("is a \(error)")
        }
        guard let weight = transaction.weight else { throw TransactionRefusal("is a malformed transaction") }
        guard weight <= maximumWeight else { throw TransactionRefusal(Self.tooHeavy(weight)) }
        for (index, output) in transaction.outputs.enumerated() where !BitcoinSupply.contains(output.value) {
            throw TransactionRefusal("pays \(output.value) sat in output \(index), more than the 21 million BTC that can exist")
        }
        guard BitcoinSupply.sum(transaction.outputs.lazy.map(\.value)) != nil else {
            throw TransactionRefusal("has outputs that add up to more than the 21 million BTC that can exist")
        }
        return transaction
    }

    private static func tooHeavy(_ weight: Int) -> String {
        "weighs at least \(weight) weight units, more than the \(maximumWeight) Bitcoin allows a transaction"
    }
}

/// Why a transaction's bytes were refused, as the end of a sentence about it.
struct TransactionRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
