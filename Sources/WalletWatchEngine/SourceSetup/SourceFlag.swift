import Foundation
import WalletWatchCore

/// A flag of `walletwatch source add`, named after the config key it writes (CLI.md, "Additions
/// (SPEC sections 25-28)"). A kind that joins the config loader needs only its flags here (and
/// their options on the command line): whether a key suits a kind is the loader's to say, so a
/// flag of another kind is refused with the loader's own reason.
///
/// The cases' order is the order of the keys in the block written: where the server is and
/// which chain it serves first, then what is watched.
public enum SourceFlag: String, Sendable, CaseIterable {
    case url
    case urlFile = "url-file"
    case urlEnv = "url-env"
    case chain
    case chainID = "chain-id"
    case native
    case asset
    case arkAsset = "ark-asset"
    case onchainAsset = "onchain-asset"
    case network
    case descriptor
    case xpub
    case address
    case gapLimit = "gap-limit"
    case changeGapLimit = "change-gap-limit"
    case tokenFile = "token-file"
    case pin
    case proxy
    case intervalSeconds = "interval-seconds"
    // EVM (SPEC.md section 26): written as given; the loader decides whether the kind has them.
    case token
    case tokenAsset = "token-asset"
    case history
    case historyURL = "history-url"
    case apiKeyFile = "api-key-file"
    case apiKeyEnv = "api-key-env"
    case confirmations

    /// The config key the flag writes for a source of `kind`. barkd names its asset
    /// `ark_asset`: `--asset` is that key there.
    public func key(kind: String) -> String {
        switch self {
        case .url: "url"
        case .asset: kind == "barkd" ? "ark_asset" : "asset"
        case .arkAsset: "ark_asset"
        case .onchainAsset: "onchain_asset"
        case .network: "network"
        case .descriptor: "descriptors"
        case .xpub: "xpub"
        case .address: "addresses"
        case .gapLimit: "gap_limit"
        case .changeGapLimit: "change_gap_limit"
        case .tokenFile: "token_file"
        case .pin: "certificate_sha256"
        case .proxy: "proxy"
        case .intervalSeconds: "interval_seconds"
        case .chain: "chain"
        case .chainID: "chain_id"
        case .native: "native"
        case .urlFile: "url_file"
        case .urlEnv: "url_env"
        case .token: "tokens"
        case .tokenAsset: "token_assets"
        case .history: "history"
        case .historyURL: "history_url"
        case .apiKeyFile: "api_key_file"
        case .apiKeyEnv: "api_key_env"
        case .confirmations: "confirmations"
        }
    }

    /// `--descriptor`: the text a user types.
    public var spelled: String { "--" + rawValue }

    /// Flags given once or more, written as a TOML list.
    public var isRepeatable: Bool { self == .descriptor || self == .address || self == .token || self == .tokenAsset }

    /// Flags whose value is a whole number.
    var isInteger: Bool { self == .gapLimit || self == .changeGapLimit || self == .intervalSeconds || self == .chainID }

    /// Flags that name a file, given relative to the current folder.
    var isPath: Bool { self == .tokenFile || self == .apiKeyFile || self == .urlFile }

    /// The config value of `values` (one, or more for a repeatable flag). A path becomes absolute
    /// against `currentDirectory`, then relative to the config's folder when it lies inside it.
    func value(_ values: [String], currentDirectory: String, configFolder: String) throws(UsageError) -> ConfigValue {
        if self == .tokenAsset { return try Self.tokenAssets(values) }
        if isRepeatable { return .array(values.map(listElement)) }
        guard values.count == 1, let text = values.first else {
            throw UsageError("\(spelled) is given \(values.count) times; give it once")
        }
        // `confirmations` is "finalized" (the default) or a block count: a number is written as one.
        if self == .confirmations, let count = Int(text) { return .integer(count) }
        if isInteger {
            guard let number = Int(text) else { throw UsageError("\(spelled) '\(DisplaySafety.escaped(text))' is not a whole number") }
            return .integer(number)
        }
        if isPath { return .string(Self.configPath(text, currentDirectory: currentDirectory, configFolder: configFolder)) }
        return .string(text)
    }

    /// One element of a list: `--token 0xCONTRACT=CODE` is a token given by its contract.
    private func listElement(_ text: String) -> ConfigValue {
        if self == .token, let equals = text.firstIndex(of: "="), text.hasPrefix("0x") {
            return .inlineTable([ConfigEntry("contract", .string(String(text[..<equals]))),
                                 ConfigEntry("currency", .string(String(text[text.index(after: equals)...])))])
        }
        return .string(text)
    }

    /// `token_assets` from `--token-asset CODE=NAME` flags: `{ USDC = "Stable savings" }`.
    private static func tokenAssets(_ values: [String]) throws(UsageError) -> ConfigValue {
        var entries: [ConfigEntry] = []
        for text in values {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                throw UsageError("--token-asset '\(DisplaySafety.escaped(text))' is not CODE=NAME; write it like --token-asset USDC=\"Stable savings\"")
            }
            let code = String(text[..<equals]).uppercased()
            guard !entries.contains(where: { $0.key == code }) else { throw UsageError("--token-asset names \(DisplaySafety.escaped(code))'s asset twice; give it once") }
            entries.append(ConfigEntry(code, .string(String(text[text.index(after: equals)...]))))
        }
        return .inlineTable(entries)
    }

    /// `path` as the config should hold it: relative to the config's folder when the file lies
    /// in it (the pair can move together), else absolute.
    static func configPath(_ path: String, currentDirectory: String, configFolder: String) -> String {
        let absolute = ConfigLoader.absolute(path, relativeTo: currentDirectory)
        let folder = (configFolder as NSString).standardizingPath
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
