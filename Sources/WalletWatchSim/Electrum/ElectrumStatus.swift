import Crypto
import WalletWatchBitcoin

/// A script's status as Electrum's protocol-basics ("Status") defines it: the SHA-256 of the
/// concatenated `txid:height:` of its history (in the order ``ChainLedger/history(of:)`` gives),
/// as lowercase hex; nil for a script without history.
enum ElectrumStatus {
    /// The status of `history`.
    static func of(_ history: [ScriptHistoryItem]) -> String? {
        guard !history.isEmpty else { return nil }
        let text = history.map { "\($0.txid):\($0.height):" }.joined()
        return Hex.encode(SHA256.hash(data: Array(text.utf8)))
    }
}
