/// The identifiers of on-chain data that sources report: transaction ids and outpoints.
///
/// A source's identifiers are stored, shown, tagged and put into later request paths (Esplora's
/// `/txs/chain/:txid`), so anything that is not one is refused rather than kept.
public enum BitcoinIdentifier {
    /// A transaction id: 64 hexadecimal digits, returned in lower case, as Bitcoin Core,
    /// Esplora and barkd write them (so that one transaction always has one spelling); nil for
    /// anything else.
    public static func txid(_ text: some StringProtocol) -> String? {
        guard text.utf8.count == 64, text.utf8.allSatisfy(isHexDigit) else { return nil }
        return text.lowercased()
    }

    /// An outpoint `txid:vout` (`vout` a 32-bit output index in decimal, without leading zeros,
    /// as rust-bitcoin writes and requires it), with the txid in lower case; nil for anything else.
    public static func outpoint(_ text: String) -> String? {
        guard let colon = text.lastIndex(of: ":"), let txid = txid(text[..<colon]) else { return nil }
        let index = text[text.index(after: colon)...]
        guard (1...10).contains(index.utf8.count), index.utf8.allSatisfy({ $0 &- 48 < 10 }),
              index == "0" || !index.hasPrefix("0"), let value = UInt64(index), value <= UInt32.max
        else { return nil }
        return "\(txid):\(index)"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 48 < 10 || (byte | 0x20) &- 97 < 6
    }
}
