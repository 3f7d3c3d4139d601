import WalletWatchBitcoin

extension ConfigLoader {
    /// An on-chain source's `addresses`, `descriptors`, `xpub` and gap limits (esplora and
    /// electrum alike): at least one of the first three; together one wallet. Refusals name the
    /// source and, for a descriptor, its position in the list and the character where the
    /// problem starts; a private key is named by its kind only.
    static func walletAddresses(_ reader: inout TableReader, into source: inout SourceConfig) throws {
        let addresses = try reader.strings("addresses") ?? []
        let descriptors = try reader.strings("descriptors") ?? []
        let xpub = try reader.string("xpub")
        let gapLimit = try reader.int("gap_limit", in: 1...10_000)
        let changeGapLimit = try reader.int("change_gap_limit", in: 1...10_000)
        let maxAddresses = try reader.int("max_addresses_per_pass", in: 1...10_000_000)
        guard !addresses.isEmpty || !descriptors.isEmpty || xpub != nil else {
            throw reader.error("addresses", "of source '\(source.name)' is missing or empty; list the addresses to watch, e.g. [\"bc1q...\"], or give an HD wallet's `descriptors` or `xpub`")
        }
        // Checked by their encoding (checksums, witness rules, the network's prefixes), so a
        // typo is caught here rather than by an explorer that answers "no transactions".
        source.addresses = try addresses.map { text in
            do {
                return try Address(text, network: source.network).description
            } catch {
                throw reader.error("addresses", "of source '\(source.name)': \(error)")
            }
        }
        guard !descriptors.isEmpty || xpub != nil else {
            if gapLimit != nil || changeGapLimit != nil || maxAddresses != nil {
                throw reader.error(gapLimit != nil ? "gap_limit" : changeGapLimit != nil ? "change_gap_limit" : "max_addresses_per_pass",
                                   "of source '\(source.name)' applies to HD wallets only; give the source `descriptors` or `xpub`, or remove it")
            }
            return
        }
        do {
            source.wallet = try HDWallet(descriptors: descriptors, xpub: xpub, network: source.network)
        } catch {
            throw reader.error(error.origin == .xpub ? "xpub" : "descriptors", "of source '\(source.name)': \(error)")
        }
        source.gapLimit = gapLimit ?? SourceConfig.defaultGapLimit
        source.changeGapLimit = changeGapLimit ?? SourceConfig.defaultGapLimit
        source.maxAddressesPerPass = maxAddresses ?? SourceConfig.defaultMaxAddressesPerPass
    }
}
