/// An output of a transaction: its txid (as displayed) and its index.
struct Outpoint: Hashable, Sendable, CustomStringConvertible {
    let txid: String
    let vout: Int

    var description: String { "\(txid):\(vout)" }
}
