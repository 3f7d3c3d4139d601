import Foundation
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchEngine

/// An `evm` source's keys as CLI.md's "Additions (SPEC sections 25-28)" writes them.
@Suite("Configuration: evm sources")
struct EVMConfigTests {
    /// CLI.md's example evm source, every key as written there.
    static let example = """
        [[sources]]
        name = "eth"
        kind = "evm"
        chain = "ethereum"
        url = "http://127.0.0.1:8545"
        addresses = ["0x52908400098527886E0F7030069857D2E4169EE7"]
        tokens = ["USDC", "USDT", { contract = "0x6B175474E89094C44Da98b954EedeAC495271d0F", currency = "DAI" }]
        history = "etherscan"
        history_url = "https://api.etherscan.io/v2/api"
        api_key_file = "etherscan.key"
        confirmations = "finalized"
        asset = "Ledger ETH"
        token_assets = { USDC = "Stable savings" }
        interval_seconds = 12
        """

    @Test("CLI.md's example: the chain, built-in and listed tokens with their assets, the explorer and its key file")
    func example() throws {
        let config = try ConfigLoader.parse(Self.example, file: "/etc/ww/walletwatch.toml")
        let source = try #require(config.sources.first)
        let evm = try #require(source.evm)
        #expect(source.kind == .evm && source.url == "http://127.0.0.1:8545" && source.intervalSeconds == 12)
        #expect(evm.chainID == 1 && evm.native == "ETH" && evm.chainLabel == "ethereum (1)")
        #expect(evm.addresses.map(\.checksummed) == ["0x52908400098527886E0F7030069857D2E4169EE7"])
        // Circle's and Tether's contracts on Ethereum (etherscan.io's token pages name them).
        #expect(evm.tokens.map { "\($0.currency) \($0.contract.checksummed) \($0.asset)" } == [
            "USDC 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 Stable savings",
            "USDT 0xdAC17F958D2ee523a2206206994597C13D831ec7 eth USDT",
            "DAI 0x6B175474E89094C44Da98b954EedeAC495271d0F eth DAI",
        ])
        #expect(evm.history == .etherscan && evm.historyURL == "https://api.etherscan.io/v2/api")
        #expect(evm.apiKey == .file("/etc/ww/etherscan.key"), "relative to the config's folder")
        #expect(evm.confirmations == nil && evm.nativeAsset == "Ledger ETH" && source.asset == "Ledger ETH")
        #expect(evm.urlSecret == nil)
    }

    @Test("defaults: 12 s on Ethereum, 2 s on the others and on a chain given by id; the asset named after the source; url_env; a block count")
    func defaults() throws {
        for (chain, interval, asset) in [("chain = \"ethereum\"", 12, "a ETH"), ("chain = \"base\"", 2, "a ETH"),
                                         ("chain = \"polygon\"", 2, "a POL"), ("chain_id = 100\nnative = \"xdai\"", 2, "a XDAI")] {
            let config = try ConfigLoader.parse("""
                [[sources]]
                name = "a"
                kind = "evm"
                \(chain)
                url_env = "RPC_URL"
                addresses = ["0x52908400098527886e0f7030069857d2e4169ee7"]
                history = "none"
                confirmations = 3
                """, file: "/etc/ww/walletwatch.toml")
            let source = try #require(config.sources.first)
            #expect(source.intervalSeconds == interval, "\(chain)")
            #expect(source.evm?.nativeAsset == asset, "\(chain)")
            #expect(source.evm?.urlSecret == .environment("RPC_URL") && source.evm?.confirmations == 3)
            #expect(source.evm?.addresses.first?.checksummed == "0x52908400098527886E0F7030069857D2E4169EE7", "all lower case needs no checksum")
        }
    }

    @Test("a URL given twice, or an API key twice, names both keys", arguments: [
        ("url = \"http://127.0.0.1:8545\"\nurl_env = \"RPC_URL\"", "url and url_env are both set"),
        ("url_file = \"rpc.url\"\nurl_env = \"RPC_URL\"", "url_file and url_env are both set"),
        ("url_env = \"RPC_URL\"\napi_key_file = \"k\"\napi_key_env = \"K\"", "api_key_file"),
    ])
    func twice(keys: String, expected: String) {
        #expect {
            try ConfigLoader.parse("""
                [[sources]]
                name = "eth"
                kind = "evm"
                chain = "ethereum"
                \(keys)
                addresses = ["0x52908400098527886E0F7030069857D2E4169EE7"]
                """, file: "/etc/ww/walletwatch.toml")
        } throws: { error in
            let message = (error as? ConfigError)?.description ?? ""
            return message.contains("/etc/ww/walletwatch.toml") && message.contains(expected)
        }
    }
}
