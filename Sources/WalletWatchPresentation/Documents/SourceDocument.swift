import WalletWatchCore
import WalletWatchEngine

/// The JSON shapes of `walletwatch source add`, `list` and `remove` (CLI.md, "Additions (SPEC
/// sections 25-28)").
public enum SourceDocument {
    /// `source add`: `{"config", "added": [{"name", "kind", "url" (null when read from url_file or url_env), "assets"}], "script_types":
    /// {"tried": [{"type", "history"}], "kept": [types], "receive_window", "change_window"}|null,
    /// "certificate_sha256": hex|null (pinned on first use), "checks": [{"name", "ok",
    /// "detail"}], "ingest": the `ingest --json` document of the first pass|null}`.
    public static func added(_ plan: SourcePlan, assets: [String: [String]], pass: [IngestReport]?) -> JSONValue {
        .object([
            "config": .string(plan.file),
            "added": .array(plan.added.map { source -> JSONValue in
                .object([
                    "name": .string(source.name),
                    "kind": .string(source.kind.rawValue),
                    // A URL read from url_file or url_env holds a key: never printed.
                    "url": .string(source.evm?.urlSecret == nil ? source.url : nil),
                    "assets": .array((assets[source.name] ?? []).map(JSONValue.string)),
                ])
            }),
            "script_types": plan.scriptTypes.map { scan -> JSONValue in
                .object([
                    "tried": .array(scan.candidates.map { .object(["type": .string($0.scriptType.rawValue), "history": .bool($0.hasHistory)]) }),
                    "kept": .array(scan.kept.map { .string($0.scriptType.rawValue) }),
                    "receive_window": .int(scan.receiveWindow),
                    "change_window": .int(scan.changeWindow),
                ])
            } ?? .null,
            "certificate_sha256": .string(plan.trustedCertificate?.hex),
            "checks": MaintenanceDocument.doctor(plan.checks)["checks"] ?? .array([]),
            "ingest": pass.map(IngestDocument.json) ?? .null,
        ])
    }

    /// `source list`: `[{"name", "kind", "assets", "last_pass", "state", "error"}]`.
    public static func list(_ rows: [SourceListing]) -> JSONValue {
        .array(rows.map { row -> JSONValue in
            .object([
                "name": .string(row.name),
                "kind": .string(row.kind),
                "assets": .array(row.assets.map(JSONValue.string)),
                "last_pass": .string(row.lastPass?.iso8601),
                "state": .string(row.state.rawValue),
                "error": .string(row.error),
            ])
        })
    }

    /// `source remove`: `{"removed", "kind", "config", "assets", "transactions"}`: the assets and
    /// transactions named stay in the database.
    public static func removed(_ removal: SourceRemoval) -> JSONValue {
        .object([
            "removed": .string(removal.name),
            "kind": .string(removal.kind),
            "config": .string(removal.file),
            "assets": .array(removal.assets.map(JSONValue.string)),
            "transactions": .int(removal.transactions),
        ])
    }
}
