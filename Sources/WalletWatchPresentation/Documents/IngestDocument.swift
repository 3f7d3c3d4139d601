import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of `walletwatch ingest` (CLI.md): an electrum source's entry also has
/// `round_trips`, the writes its pass waited an answer for; an evm source's `history_requests`
/// and, when its rows do not add up to its balance, `warning`.
public enum IngestDocument {
    public static func json(_ reports: [IngestReport]) -> JSONValue {
        .object([
            "ok": .bool(reports.allSatisfy(\.ok)),
            "sources": .array(reports.map { report in
                var members: [JSONValue.Member] = [
                    .init("name", .string(report.source)),
                    .init("ok", .bool(report.ok)),
                    .init("new", .int(Int64(report.counts.new))),
                    .init("updated", .int(Int64(report.counts.updated))),
                    .init("dropped", .int(Int64(report.counts.dropped))),
                    .init("auto_allocated", .int(Int64(report.counts.autoAllocated))),
                    .init("error", .string(report.error)),
                    .init("duration_ms", .int(report.duration.milliseconds)),
                    .init("requests", .int(report.requests.map(Int64.init))),
                ]
                if let roundTrips = report.roundTrips { members.append(.init("round_trips", .int(Int64(roundTrips)))) }
                if let historyRequests = report.historyRequests {
                    members.append(.init("history_requests", .int(Int64(historyRequests))))
                    // An evm pass whose confirmed rows do not add up to the balance says so.
                    let incomplete = report.warnings.filter { $0.hasPrefix("history incomplete") }
                    if !incomplete.isEmpty { members.append(.init("warning", .string(incomplete.joined(separator: "; ")))) }
                }
                return .object(members)
            }),
        ])
    }
}
