import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of `walletwatch ingest` (CLI.md).
public enum IngestDocument {
    public static func json(_ reports: [IngestReport]) -> JSONValue {
        .object([
            "ok": .bool(reports.allSatisfy(\.ok)),
            "sources": .array(reports.map { report in
                .object([
                    "name": .string(report.source),
                    "ok": .bool(report.ok),
                    "new": .int(Int64(report.counts.new)),
                    "updated": .int(Int64(report.counts.updated)),
                    "dropped": .int(Int64(report.counts.dropped)),
                    "auto_allocated": .int(Int64(report.counts.autoAllocated)),
                    "error": .string(report.error),
                    "duration_ms": .int(report.duration.milliseconds),
                    "requests": .int(report.requests.map(Int64.init)),
                ])
            }),
        ])
    }
}
