import Testing
@testable import WalletWatchEngine

/// Issue 26's rule for every kind that watches addresses: a failure text that leaves the
/// machine (a `source.failing` webhook, the log, `ingest_runs`) names an address by its place in
/// the config, never as itself. Esplora and Electrum are tested through real passes in
/// NotifierTests; these are the evm and arkd sources' addresses, read by the real config loader.
@Suite("Failure texts of evm and arkd sources name no address")
struct WalletRedactionTests {
    static let arkAddress = "ark1qr7ae2rzht09wg742tvewvqr8t8d6zkt5zjnqzu9lxwmyafhhrwpj7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9ucu9nnjn"

    @Test("an evm source's addresses, in any case, become their place in the config")
    func evm() throws {
        let config = try ConfigLoader.parse("""
            [[sources]]
            name = "eth"
            kind = "evm"
            chain = "ethereum"
            url = "http://127.0.0.1:8545"
            addresses = ["0x52908400098527886E0F7030069857D2E4169EE7", "0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c"]
            history = "none"
            asset = "Ledger ETH"
            """, file: "/x/walletwatch.toml")
        let redaction = WalletRedaction(source: config.sources[0], stored: [])
        let text = "eth_getBalance of 0x52908400098527886e0f7030069857d2e4169ee7 answered null; 0x5A0B54D5DC17E0AADC383D2DB43B0A0D3E029C4C too"
        let redacted = redaction.redact(text)
        #expect(redacted == "eth_getBalance of [listed address 1 of 'Ledger ETH'] answered null; [listed address 2 of 'Ledger ETH'] too", "\(redacted)")
    }

    @Test("an arkd source's Ark addresses and their VTXO scripts become their place in the config")
    func arkd() throws {
        let config = try ConfigLoader.parse("""
            [[sources]]
            name = "ark-watch"
            kind = "arkd"
            url = "http://127.0.0.1:7070"
            addresses = ["\(Self.arkAddress)"]
            asset = "Ark savings"
            """, file: "/x/walletwatch.toml")
        let source = config.sources[0]
        let script = try #require(source.arkScripts.first)
        let redacted = WalletRedaction(source: source, stored: []).redact("VTXOs of \(script) (\(Self.arkAddress)) repeated a page")
        #expect(redacted == "VTXOs of [listed address 1 of 'Ark savings'] ([listed address 1 of 'Ark savings']) repeated a page", "\(redacted)")
    }
}
