import WalletWatchCore
import WalletWatchEngine

/// The JSON shapes of `walletwatch backup`, `check` and `doctor` (CLI.md, "Additions").
public enum MaintenanceDocument {
    /// `{"path", "bytes", "integrity", "removed"}`: the checked copy, and the older backups the
    /// folder let go of to keep the newest `[backup] keep`.
    public static func backup(_ made: BackupMade) -> JSONValue {
        .object([
            "path": .string(made.path),
            "bytes": .int(made.bytes),
            "integrity": .string(made.integrity),
            "removed": .array(made.removed.map(JSONValue.string)),
        ])
    }

    /// `{"ok", "findings": [{"check", "detail"}]}`.
    public static func check(_ findings: [CheckFinding]) -> JSONValue {
        .object([
            "ok": .bool(findings.isEmpty),
            "findings": .array(findings.map { .object(["check": .string($0.check), "detail": .string($0.detail)]) }),
        ])
    }

    /// `{"ok", "checks": [{"name", "ok", "detail"}]}`.
    public static func doctor(_ checks: [DoctorCheck]) -> JSONValue {
        .object([
            "ok": .bool(checks.allSatisfy(\.ok)),
            "checks": .array(checks.map { .object(["name": .string($0.name), "ok": .bool($0.ok), "detail": .string($0.detail)]) }),
        ])
    }
}
