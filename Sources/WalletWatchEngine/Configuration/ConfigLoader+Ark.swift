import WalletWatchBitcoin

extension ConfigLoader {
    /// An arkd source's `addresses`: Ark addresses (`ark1...` on bitcoin, `tark1...` on the test
    /// networks), each decoded to the VTXO script the indexer is asked about. An address that is
    /// not one, or that belongs to another network than the source's, is refused here (exit 65),
    /// naming the source: an indexer asked about it would only answer that it holds nothing.
    static func arkAddresses(_ reader: inout TableReader, into source: inout SourceConfig) throws {
        let addresses = try reader.strings("addresses") ?? []
        guard !addresses.isEmpty else {
            throw reader.error("addresses", "of source '\(source.name)' is missing or empty; list the Ark addresses to watch, e.g. [\"ark1...\"]")
        }
        var scripts: [String] = []
        for text in addresses {
            let address: ArkAddress
            do {
                address = try ArkAddress(text)
            } catch {
                throw refused(reader.error("addresses", "of source '\(source.name)': '\(shown(text))' \(error)"))
            }
            guard address.belongs(to: source.network) else {
                let theirs = address.hrp == "ark" ? "Bitcoin's (ark1...)" : "a test network's (tark1...)"
                throw refused(reader.error("addresses", "of source '\(source.name)': '\(shown(text))' is \(theirs) Ark address, but the source's network is \(source.network); set network = \"\(address.hrp == "ark" ? "bitcoin" : "testnet")\" or remove the address"))
            }
            guard !scripts.contains(address.vtxoScriptHex) else {
                throw refused(reader.error("addresses", "of source '\(source.name)' lists '\(shown(text))' twice"))
            }
            scripts.append(address.vtxoScriptHex)
        }
        source.addresses = addresses
        source.arkScripts = scripts
    }

    /// `text` shortened for a one-line message.
    private static func shown(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
        return printable.count > 24 ? printable.prefix(14) + "…" + printable.suffix(6) : printable
    }

    private static func refused(_ error: ConfigError) -> ConfigError {
        ConfigError(file: error.file, message: error.message, kind: .refused)
    }
}
