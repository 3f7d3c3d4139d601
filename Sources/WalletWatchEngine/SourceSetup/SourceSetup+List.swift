import WalletWatchCore

/// One row of `walletwatch source list`.
public struct SourceListing: Sendable, Hashable {
    /// How the source's last pass went.
    public enum State: String, Sendable {
        /// Its last pass succeeded.
        case ok
        /// Its last pass failed (``SourceListing/error`` says why).
        case failed
        /// It has not had a pass yet.
        case never
        /// It is no longer in the config; its assets and their history are still stored.
        case removed
    }

    public let name: String
    /// `barkd`, `esplora`, `electrum`...; nil for a removed source (the config said it).
    public let kind: String?
    /// The stored assets it feeds, by name; before its first pass, those its config names.
    public let assets: [String]
    /// When its last pass ended.
    public let lastPass: Instant?
    public let state: State
    /// Why its last pass failed.
    public let error: String?
}

/// What `source remove` did.
public struct SourceRemoval: Sendable, Hashable {
    /// The source removed, and its kind.
    public let name: String
    public let kind: String
    /// The config file it left.
    public let file: String
    /// The stored assets it fed: they stay, with their transactions.
    public let assets: [String]
    /// Their transactions, which stay.
    public let transactions: Int
}

extension SourceSetup {
    /// The configured sources in the config's order, each with its assets and its last pass;
    /// then the sources no longer configured whose assets are still stored.
    public func list() throws -> [SourceListing] {
        let runs = try database.lastIngestRuns()
        let assets = Dictionary(grouping: try database.assets().filter { $0.source != nil }, by: { $0.source! }).mapValues { $0.map(\.name) }
        var rows = config.sources.map { source in
            let run = runs[source.name]
            // Before its first pass stores them, the assets the config says it feeds.
            let stored = assets[source.name] ?? []
            return SourceListing(name: source.name, kind: source.kind.rawValue, assets: stored.isEmpty ? source.configuredAssets : stored, lastPass: run?.finishedAt,
                                 state: run.map { $0.ok ? SourceListing.State.ok : .failed } ?? .never, error: run?.ok == false ? run?.error : nil)
        }
        let configured = Set(config.sources.map(\.name))
        for name in assets.keys.sorted() where !configured.contains(name) {
            rows.append(SourceListing(name: name, kind: nil, assets: assets[name] ?? [], lastPass: runs[name]?.finishedAt, state: .removed, error: nil))
        }
        return rows
    }

    /// Takes the `[[sources]]` table of `name` out of the config file, leaving every other byte
    /// as it was, and writes it atomically with its mode kept. The source's assets and their
    /// history stay in the database. Refused, with nothing written, when the source is not in
    /// the config or its table cannot be told apart in the text.
    public func remove(_ name: String) throws -> SourceRemoval {
        let (file, original, base) = try readConfig()
        guard let position = base.sources.firstIndex(where: { $0.name == name }) else {
            let known = base.sources.map(\.name).joined(separator: ", ")
            throw Refusal("no source named '\(name)' in \(file)\(known.isEmpty ? " (none are configured)" : "; configured: \(known)")")
        }
        let text = ConfigText(original)
        guard text.sourceBlocks.count == base.sources.count, let updated = text.removingSourceBlock(at: position) else {
            throw Refusal("the sources of \(file) are not all written as [[sources]] tables, so the one of '\(name)' cannot be told apart; nothing was written: remove it by hand")
        }
        var expected = base
        let removed = expected.sources.remove(at: position)
        let parsed: AppConfig
        do {
            parsed = try ConfigLoader.parse(String(decoding: updated, as: UTF8.self), file: file)
        } catch {
            throw Refusal("without the table of '\(name)', \(file) would not load (\(error.message)); nothing was written: remove it by hand")
        }
        guard parsed == expected else {
            throw Refusal("taking the table of '\(name)' out of \(file) would change more than that source; nothing was written: remove it by hand")
        }
        try ConfigFileWriter.replace(file, expected: original, with: updated)
        let assets = try database.assets().filter { $0.source == name }.map(\.name)
        return SourceRemoval(name: name, kind: removed.kind.rawValue, file: file, assets: assets,
                             transactions: try database.transactionCount(source: name))
    }
}

extension SourceConfig {
    /// The names of the assets the config says the source feeds, in the config's order: barkd's
    /// Ark asset (and its on-chain one), an evm source's coin then each token, else `asset`.
    public var configuredAssets: [String] {
        switch kind {
        case .barkd: [arkAsset, onchainAsset].compactMap { $0 }
        case .evm: [evm?.nativeAsset].compactMap { $0 } + (evm?.tokens.map(\.asset) ?? [])
        case .esplora, .electrum, .fulmine, .arkd: [asset].compactMap { $0 }
        }
    }
}
