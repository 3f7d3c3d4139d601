/// The fee figures both the Electrum and the Core face report (in BTC per kvB, as Core does):
/// fixed, since nothing in the simulator competes for block space.
enum ChainFees {
    /// `estimatesmartfee`'s `feerate` for every target, and `blockchain.estimatefee`'s answer.
    static let estimate = 0.0001
    /// Core's default `minrelaytxfee` (`getnetworkinfo`'s `relayfee`).
    static let relay = 0.00001

    /// `mempool.get_info`'s answer (`getmempoolinfo`'s three fee fields).
    static var mempoolInfo: JSONValue {
        .object([.init("mempoolminfee", .double(relay)), .init("minrelaytxfee", .double(relay)), .init("incrementalrelayfee", .double(relay))])
    }
}
