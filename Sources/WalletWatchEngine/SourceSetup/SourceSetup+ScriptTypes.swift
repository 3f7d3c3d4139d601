import Foundation
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources

/// What a bare xpub's script types showed: the four tried, in order, and those with history.
public struct ScriptTypeScan: Sendable, Hashable {
    /// One script type tried.
    public struct Candidate: Sendable, Hashable {
        /// `wpkh`, `sh(wpkh)`, `pkh` or `tr`.
        public let scriptType: Descriptor.ScriptType
        /// The descriptor it stands for, with its checksum: `wpkh(xpub.../<0;1>/*)#...`.
        public let descriptor: String
        /// Whether an address of its first window (receive, else change) has a transaction.
        public let hasHistory: Bool
    }

    /// Every type tried, in the order tried.
    public let candidates: [Candidate]
    /// The addresses asked about on each chain of each type: the gap limits.
    public let receiveWindow: Int
    public let changeWindow: Int

    /// The types kept: those with history, or wpkh alone when none has any (a new wallet: native
    /// segwit, what wallets make today and Sparrow's default).
    public var kept: [Candidate] {
        let used = candidates.filter(\.hasHistory)
        return used.isEmpty ? candidates.filter { $0.scriptType == .wpkh } : used
    }

    /// Whether any type has history.
    public var foundHistory: Bool { candidates.contains(where: \.hasHistory) }
}

extension Descriptor.ScriptType {
    /// The type as a source name's suffix: `sh(wpkh)` is `sh-wpkh` (names take no brackets).
    public var nameSuffix: String { rawValue.replacingOccurrences(of: "(", with: "-").replacingOccurrences(of: ")", with: "") }
}

extension SourceSetup {
    /// The script types a bare xpub is tried as, in Sparrow's order of preference: native
    /// segwit, nested segwit, legacy, taproot.
    static let bareXpubTypes: [Descriptor.ScriptType] = [.wpkh, .shWpkh, .pkh, .tr]

    /// The xpub of `request` when it is bare (the plain `xpub`/`tpub` version, which SLIP-132
    /// leaves without a script type) and the only key of an on-chain source; nil otherwise.
    static func bareXpub(_ request: SourceRequest, _ source: SourceConfig) -> String? {
        guard source.watchesAddresses, request.flags[.descriptor] == nil, let text = request.flags[.xpub]?.first,
              let key = try? ExtendedPublicKey(text), key.version == key.version.plainPublic
        else { return nil }
        return text
    }

    /// `xpub` as a ranged descriptor of `type` over both chains, with its checksum.
    static func descriptor(_ type: Descriptor.ScriptType, xpub: String) -> String {
        let key = "\(xpub)/<0;1>/*"
        let body = switch type {
        case .wpkh: "wpkh(\(key))"
        case .shWpkh: "sh(wpkh(\(key)))"
        case .tr: "tr(\(key))"
        default: "pkh(\(key))"
        }
        return body + "#" + (Descriptor.checksum(body) ?? "")
    }

    /// Asks the source's server, for each script type, about the first `gap_limit` receive
    /// addresses, and the first `change_gap_limit` change addresses of a type whose receive
    /// window shows nothing: the window a wallet's discovery starts from, so a type without
    /// history there would find nothing in a pass either.
    func scanScriptTypes(_ source: SourceConfig, xpub: String) async throws -> ScriptTypeScan {
        var wallets: [(Descriptor.ScriptType, String, HDWallet)] = []
        for type in Self.bareXpubTypes {
            let text = Self.descriptor(type, xpub: xpub)
            wallets.append((type, text, try HDWallet(descriptors: [text], network: source.network)))
        }
        let candidates: [ScriptTypeScan.Candidate]
        do {
            candidates = try await clients.withChainBackend(source) { backend in
                var found: [ScriptTypeScan.Candidate] = []
                for (type, text, wallet) in wallets {
                    var probe = source
                    probe.wallet = wallet
                    let sync = WalletIngest.sync(probe, backend: backend)
                    var used = try await sync.probe(chain: .receive, indexes: 0..<UInt32(source.gapLimit)).addresses.contains { $0.activity.isUsed }
                    if !used {
                        used = try await sync.probe(chain: .change, indexes: 0..<UInt32(source.changeGapLimit)).addresses.contains { $0.activity.isUsed }
                    }
                    found.append(ScriptTypeScan.Candidate(scriptType: type, descriptor: text, hasHistory: used))
                }
                return found
            }
        } catch {
            let reason = (error as? any Classified)?.description ?? "\(error)"
            throw SourceSetupFailure(message: "source '\(source.name)': asking the server which script types of the xpub have history failed, so nothing was written: \(reason)")
        }
        return ScriptTypeScan(candidates: candidates, receiveWindow: source.gapLimit, changeWindow: source.changeGapLimit)
    }

    /// The blocks of a bare xpub's kept script types. One type: the block itself, its `xpub`
    /// replaced by that type's descriptor. Several: one block each (a wallet has one receive
    /// chain, so one block cannot hold two types), named `NAME-wpkh`, `NAME-tr`..., its asset
    /// `ASSET (wpkh)` when an asset was named; listed addresses go to the first.
    static func blocks(_ block: SourceBlock, for scan: ScriptTypeScan, request: SourceRequest, existing: AppConfig) throws -> [SourceBlock] {
        let kept = scan.kept
        return try kept.enumerated().map { position, candidate in
            var result = SourceBlock(comments: block.comments, entries: block.entries.map { entry in
                entry.key == "xpub" ? ConfigEntry("descriptors", .array([.string(candidate.descriptor)])) : entry
            })
            let note = scan.foundHistory ? "it has history" : "no script type has history yet; native segwit assumed"
            result.comments.append("the \(candidate.scriptType.rawValue) addresses of the xpub given (\(note))")
            guard kept.count > 1 else { return result }
            let name = "\(request.name)-\(candidate.scriptType.nameSuffix)"
            guard existing.source(named: name) == nil else {
                throw Refusal("a source named '\(name)' is already in the config, and the xpub's \(candidate.scriptType.rawValue) addresses would need that name; choose another NAME")
            }
            result = result.setting("name", .string(name))
            if case .string(let asset) = block.value("asset") {
                result = result.setting("asset", .string("\(asset) (\(candidate.scriptType.rawValue))"))
            }
            if position > 0 { result = result.removing("addresses") }
            return result
        }
    }
}
