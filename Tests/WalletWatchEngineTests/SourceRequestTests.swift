import Foundation
import Testing
import WalletWatchCore
@testable import WalletWatchEngine

/// What `source add`'s flags become before anything is asked: the block's keys and values, and
/// the refusals of the command line itself (a key in a URL, a malformed `--token-asset`).
@Suite("Source add: the request and its block")
struct SourceRequestTests {
    func block(_ kind: String, _ flags: [SourceFlag: [String]]) throws -> String {
        try SourceRequest(name: "x", kind: kind, flags: flags, currentDirectory: "/home/me/wallets")
            .block(configFolder: "/home/me/wallets", date: Day("2026-11-21")!).text
    }

    @Test("a provider's key in the URL's path is refused; ordinary server paths are not", arguments: [
        ("https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef", true),
        ("https://eth-mainnet.g.alchemy.com/v2/aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI", true),
        ("https://example.quiknode.pro/4f2c1a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39/", true),
        ("https://mempool.space/api", false),
        ("http://127.0.0.1:3000/barkd/ark", false),
        ("http://127.0.0.1:7001/fulmine/arkade/api", false),
        ("https://eth.llamarpc.com", false),
        ("https://blockscout.example.org/api/eth-mainnet-archive", false),
    ] as [(String, Bool)])
    func keyInPath(_ url: String, _ refused: Bool) {
        #expect(SourceRequest.pathHoldsKey(url) == refused, "\(url)")
        let key = url.split(separator: "/").last.map(String.init) ?? url
        do {
            _ = try SourceRequest(name: "x", kind: "evm", flags: [.url: [url]], currentDirectory: "/")
            #expect(!refused, "\(url) was not refused")
        } catch {
            #expect(refused, "\(url): \(error)")
            #expect(error.description.contains("--url-file") && !error.description.contains(key), "the key is not repeated: \(error)")
        }
    }

    @Test("evm flags write their keys in order: url_file relative to the config, chain_id a number, token_assets an inline table, confirmations a count or a word")
    func evmKeys() throws {
        let text = try block("evm", [.urlFile: ["/home/me/wallets/rpc.url"], .chainID: ["100"], .native: ["XDAI"],
                                     .address: ["0x52908400098527886E0F7030069857D2E4169EE7"],
                                     .token: ["USDC", "0x4ECaBa5870353805a9F068101A40E0f32ed605C6=USDT"], .tokenAsset: ["usdc=Stable", "USDT=Other \"one\""],
                                     .history: ["etherscan"], .historyURL: ["https://gnosis.blockscout.com/api"], .apiKeyEnv: ["SCAN_KEY"],
                                     .confirmations: ["12"]])
        #expect(text == """
            [[sources]]
            # added by `walletwatch source add` on 2026-11-21
            name = "x"
            kind = "evm"
            url_file = "rpc.url"
            chain_id = 100
            native = "XDAI"
            addresses = ["0x52908400098527886E0F7030069857D2E4169EE7"]
            tokens = ["USDC", { contract = "0x4ECaBa5870353805a9F068101A40E0f32ed605C6", currency = "USDT" }]
            token_assets = { USDC = "Stable", USDT = "Other \\"one\\"" }
            history = "etherscan"
            history_url = "https://gnosis.blockscout.com/api"
            api_key_env = "SCAN_KEY"
            confirmations = 12

            """, "\(text)")
        #expect(try block("evm", [.confirmations: ["finalized"]]).contains("confirmations = \"finalized\"\n"))
    }

    @Test("--token-asset without CODE=NAME, or naming a code twice, is refused in one line", arguments: ["USDC", "=Stable", "USDC=", "USDC=a|usdc=b"])
    func badTokenAsset(_ given: String) {
        let values = given.split(separator: "|").map(String.init)
        #expect(throws: UsageError.self) { _ = try block("evm", [.tokenAsset: values]) }
        do { _ = try block("evm", [.tokenAsset: values]) } catch {
            #expect("\(error)".contains("--token-asset") && !"\(error)".contains("\n"), "\(error)")
        }
    }
}
