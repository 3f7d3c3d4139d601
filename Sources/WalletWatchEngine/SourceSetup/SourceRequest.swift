import Foundation
import WalletWatchCore
import WalletWatchNet

/// What `walletwatch source add` was asked: a name, a kind, and the flags given, each the
/// config key it is named after.
public struct SourceRequest: Sendable {
    public let name: String
    /// As typed: the config loader says whether it knows the kind.
    public let kind: String
    /// Each flag given with its values, in ``SourceFlag``'s order.
    public let flags: [SourceFlag: [String]]
    /// Where relative paths of the command line start.
    public let currentDirectory: String

    public init(name: String, kind: String, flags: [SourceFlag: [String]], currentDirectory: String) throws(UsageError) {
        self.name = name
        self.kind = kind
        self.flags = flags.filter { !$0.value.isEmpty }
        self.currentDirectory = currentDirectory
        // A secret on the command line is seen by every user of the machine (the process list)
        // and kept in shell histories: a URL that holds one is refused, tokens come from files.
        if let url = flags[.url]?.first, URLRedaction.redact(url) != url {
            throw UsageError("--url holds a credential (a user name, password or key in it); walletwatch takes no secret on the command line, where other users see it in the process list: give the server's address without it")
        }
        if let url = flags[.url]?.first, Self.pathHoldsKey(url) {
            throw UsageError("--url looks like it holds an API key in its path (as a provider's URL does, such as .../v3/KEY); walletwatch takes no secret on the command line, where other users see it in the process list: write the URL into a file readable only by you and give --url-file FILE (or --url-env VARIABLE)")
        }
    }

    /// Whether a segment of `url`'s path looks like a key: 20 or more letters, digits, `-` or
    /// `_`, with both letters and digits (Infura's `/v3/KEY`, Alchemy's `/v2/KEY`, QuickNode's
    /// `/KEY/`). Query values named like secrets are caught by ``URLRedaction`` already.
    static func pathHoldsKey(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        return components.path.split(separator: "/").contains { segment in
            segment.count >= 20 && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
                && segment.contains(where: \.isNumber) && segment.contains(where: \.isLetter)
        }
    }

    /// The config block the flags make, before anything is asked of the server.
    func block(configFolder: String, date: Day) throws(UsageError) -> SourceBlock {
        var entries = [ConfigEntry("name", .string(name)), ConfigEntry("kind", .string(kind))]
        for flag in SourceFlag.allCases {
            guard let values = flags[flag] else { continue }
            let key = flag.key(kind: kind)
            guard !entries.contains(where: { $0.key == key }) else {
                let other = SourceFlag.allCases.first { $0 != flag && flags[$0] != nil && $0.key(kind: kind) == key }
                throw UsageError("\(flag.spelled) and \(other?.spelled ?? "another flag") both set \(key); give one of them")
            }
            entries.append(ConfigEntry(key, try flag.value(values, currentDirectory: currentDirectory, configFolder: configFolder)))
        }
        return SourceBlock(comments: ["added by `walletwatch source add` on \(date)"], entries: entries)
    }

    /// The flag that wrote `key` into the block, for messages (`--descriptor` for `descriptors`).
    func flag(forKey key: String) -> SourceFlag? {
        SourceFlag.allCases.first { flags[$0] != nil && $0.key(kind: kind) == key }
            ?? SourceFlag.allCases.first { $0.key(kind: kind) == key }
    }
}
