import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources

/// A wallet source's failure text as it may leave the machine: the `source.failing` webhook
/// (the README's example posts to a public ntfy.sh), the daemon's log, `ingest_runs`. Those
/// name the source and asset; an address or script would let anyone who reads them look the
/// wallet up on a public explorer. Every address of the wallet, its script and both forms of
/// its scripthash (Electrum's and Esplora's) becomes its place in the asset ("[receive address
/// 5 of 'Hardware wallet']"); any other address of the network (one a failed pass derived and
/// never stored, or a server quoted) becomes "[an address]", and the hash after a
/// `scripthash/` route "[a script]".
/// An evm source's addresses and an arkd source's Ark addresses and VTXO scripts become their
/// place in the config ("[listed address 2 of 'Ledger ETH']") the same way.
/// Transaction ids stay: they say which payment, and a pass's errors need them.
struct WalletRedaction {
    private var labels: [String: String] = [:]
    let network: Network
    /// The asset the wallet feeds, as the labels name it.
    let asset: String

    /// The redaction of `source`'s wallet, whose stored addresses are `stored`.
    init(source: SourceConfig, stored: [WalletAddress]) {
        network = source.network
        asset = DisplaySafety.escaped(source.asset ?? source.evm?.nativeAsset ?? source.name)
        if let evm = source.evm {
            for (position, address) in evm.addresses.enumerated() { labels[address.lowercased] = listed(position) }
            return
        }
        if source.kind == .arkd {
            for (position, text) in source.addresses.enumerated() { labels[text.lowercased()] = listed(position) }
            for (position, script) in source.arkScripts.enumerated() { labels[script.lowercased()] = listed(position) }
            return
        }
        for (position, text) in source.addresses.enumerated() {
            guard let address = try? Address(text, network: source.network) else { continue }
            add(WalletAddress(chain: .listed, index: position, script: Hex.encode(address.scriptPubKey), address: address.description))
        }
        for address in stored { add(address) }
    }

    private func listed(_ position: Int) -> String {
        "[\(WalletAddress(chain: .listed, index: position, script: "", address: "").label) of '\(asset)']"
    }

    private mutating func add(_ address: WalletAddress) {
        let label = "[\(address.label) of '\(asset)']"
        labels[address.address.lowercased()] = label
        guard let script = Hex.decode(address.script) else { return }
        for token in [address.script, Script.electrumScripthash(script), Script.esploraScripthash(script)] {
            labels[token.lowercased()] = label
        }
    }

    /// `text` with every address and script of the wallet (or of its network) replaced.
    func redact(_ text: String) -> String {
        var result = ""
        var token = ""
        func flush() {
            guard !token.isEmpty else { return }
            if let label = labels[token.lowercased()] {
                result += label
            } else if token.count >= 14, (try? Address(token, network: network)) != nil {
                result += "[an address]"
            } else if token.count == 64, token.allSatisfy(\.isHexDigit), result.hasSuffix("scripthash/") {
                result += "[a script]"
            } else {
                result += token
            }
            token = ""
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber {
                token.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
