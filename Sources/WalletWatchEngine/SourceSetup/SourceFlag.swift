import Foundation
import WalletWatchCore

/// A flag of `walletwatch source add`, named after the config key it writes (CLI.md, "Additions
/// (SPEC sections 25-28)"). A kind that joins the config loader needs only its flags here (and
/// their options on the command line): whether a key suits a kind is the loader's to say, so a
/// flag of another kind is refused with the loader's own reason.
public enum SourceFlag: String, Sendable, CaseIterable {
    case url
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
    case chain
    case token
    case history
    case apiKeyFile = "api-key-file"

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
        case .token: "tokens"
        case .history: "history"
        case .apiKeyFile: "api_key_file"
        }
    }

    /// `--descriptor`: the text a user types.
    public var spelled: String { "--" + rawValue }

    /// Flags given once or more, written as a TOML list.
    public var isRepeatable: Bool { self == .descriptor || self == .address || self == .token }

    /// Flags whose value is a whole number.
    var isInteger: Bool { self == .gapLimit || self == .changeGapLimit || self == .intervalSeconds }

    /// Flags that name a file, given relative to the current folder.
    var isPath: Bool { self == .tokenFile || self == .apiKeyFile }

    /// The config value of `values` (one, or more for a repeatable flag). A path becomes absolute
    /// against `currentDirectory`, then relative to the config's folder when it lies inside it.
    func value(_ values: [String], currentDirectory: String, configFolder: String) throws(UsageError) -> ConfigValue {
        if isRepeatable { return .array(values.map(listElement)) }
        guard values.count == 1, let text = values.first else {
            throw UsageError("\(spelled) is given \(values.count) times; give it once")
        }
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

    /// `path` as the config should hold it: relative to the config's folder when the file lies
    /// in it (the pair can move together), else absolute.
    static func configPath(_ path: String, currentDirectory: String, configFolder: String) -> String {
        let absolute = ConfigLoader.absolute(path, relativeTo: currentDirectory)
        let folder = (configFolder as NSString).standardizingPath
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
