import Foundation
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

// walletwatch-bench: the ingest's steps measured one at a time, for scripts/bench.
//   walletwatch-bench decode FILE   decode a saved barkd history body (64 KiB chunks), no network, no database
//   walletwatch-bench write N DB    write N transactions shaped like barkd's through one ingest pass
//   walletwatch-bench seed-month DB TRANSACTIONS HISTORY
//                                   a database for timing `month status`: an Ark wallet shared by
//                                   20 goals through HISTORY allocation-history rows (2023 to
//                                   2026-11-20), and TRANSACTIONS transactions of which the same 300
//                                   fall in November 2026 whatever the total; the rest is older.
// Each prints one JSON object: the step, the count, wall and CPU seconds, and the rate.

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func report(_ step: String, count: Int, bytes: Int?, started: ContinuousClock.Instant, cpuStarted: Double) {
    let wall = ContinuousClock.now - started
    let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    var fields = ["\"step\":\"\(step)\"", "\"count\":\(count)", String(format: "\"wall_s\":%.3f", seconds),
                  String(format: "\"cpu_s\":%.3f", cpuSeconds() - cpuStarted), String(format: "\"per_item_us\":%.2f", seconds * 1e6 / Double(max(count, 1)))]
    if let bytes { fields.append(String(format: "\"mb_per_s\":%.1f", Double(bytes) / 1e6 / seconds)) }
    print("{" + fields.joined(separator: ",") + "}")
}

/// Records `transactions` in one pass of source "ark", in batches of the ingest's size, and
/// publishes it with `publishing`.
func ingest(_ transactions: [ObservedTransaction], into database: AppDatabase, now: Instant,
            publishing: @escaping @Sendable (inout PassPublication) throws -> Void = { _ in }) async throws {
    var pass = try await database.beginPass(source: "ark", now: now)
    let asset = try await pass.asset(.ark, named: "Ark wallet")
    var start = 0
    while start < transactions.count {
        let end = min(transactions.count, start + 2048)
        try await pass.record(Array(transactions[start..<end]), in: asset)
        start = end
    }
    _ = try await pass.publish(startedAt: now, publishing)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "decode" where arguments.count == 3:
    let body = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    var decoder = BarkdHistoryDecoder()
    var count = 0
    let started = ContinuousClock.now, cpu = cpuSeconds()
    try body.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65536)
            for movement in try decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) {
                _ = MovementMapping.transaction(movement, source: "ark")
                count += 1
            }
            offset = end
        }
    }
    try decoder.finish()
    report("decode", count: count, bytes: body.count, started: started, cpuStarted: cpu)
case "write" where arguments.count == 4:
    let count = Int(arguments[2]) ?? 0
    let database = try AppDatabase.open(path: arguments[3])
    let now = Instant(iso8601: "2026-11-21T12:00:00Z")!
    let transactions = (0..<count).map { index in
        ObservedTransaction(txid: "ark:ark:\(count - index)", amount: index % 3 == 0 ? -12_345 : 54_321, type: .ark,
                            status: .confirmed, date: now.adding(seconds: -Int64(index) * 300), fee: 10, counterparty: "ark1qexampledestination")
    }
    let started = ContinuousClock.now, cpu = cpuSeconds()
    try await ingest(transactions, into: database, now: now)
    report("write", count: count, bytes: nil, started: started, cpuStarted: cpu)
case "seed-month" where arguments.count == 5:
    let total = Int(arguments[3]) ?? 0, historyRows = Int(arguments[4]) ?? 0
    let database = try AppDatabase.open(path: arguments[2])
    let setUp = Instant(iso8601: "2023-01-01T00:00:00Z")!
    let started = ContinuousClock.now, cpu = cpuSeconds()
    try await ingest([], into: database, now: setUp) { publication in
        try publication.save(ArkBalance(spendable: 100 * 100_000_000, pendingLightningSend: 0, claimableLightningReceive: 0,
                                        pendingInRound: 0, pendingExit: 0, pendingBoard: 0))
    }
    let goals = (1...20).map { "Goal \($0)" }
    for name in goals {
        _ = try database.createGoal(name: name, currency: .btc, target: 50_000_000, deadline: Day("2027-12-31"), now: setUp)
    }
    // Two pairs change per call, so HISTORY rows take HISTORY / 2 calls, evenly from 2023-01-02
    // to 2026-11-20: the last few fall in the month.
    let calls = max(1, historyRows / 2)
    let first = Instant(iso8601: "2023-01-02T00:00:00Z")!, last = Instant(iso8601: "2026-11-20T00:00:00Z")!
    let step = (last.millisecondsSinceEpoch - first.millisecondsSinceEpoch) / Int64(calls)
    for call in 0..<calls {
        let pair = [goals[call % goals.count], goals[(call + 1) % goals.count]]
        // Amounts unique to the call, so that both targets change and each writes a row.
        let amounts = ["\(100_000 + call)sat", "\(200_000 + call)sat"]
        _ = try database.allocate(assetName: "Ark wallet", assignments: [(pair[0], amounts[0]), (pair[1], amounts[1])],
                                  now: Instant(millisecondsSinceEpoch: first.millisecondsSinceEpoch + Int64(call) * step))
    }
    // 300 transactions from 2026-11-02 to 2026-11-20, the rest every two minutes before November.
    let inMonth = min(300, total)
    let monthStart = Instant(iso8601: "2026-11-02T00:00:00Z")!, beforeMonth = Instant(iso8601: "2026-10-31T23:00:00Z")!
    let transactions = (0..<total).map { index in
        let date = index < inMonth ? monthStart.adding(seconds: Int64(index) * 5400)
                                   : beforeMonth.adding(seconds: -Int64(index - inMonth) * 120)
        return ObservedTransaction(txid: "ark:ark:\(index + 1)", amount: index % 4 == 0 ? -20_000 : 50_000, type: .ark,
                                   status: .confirmed, date: date, fee: 0, counterparty: nil)
    }
    try await ingest(transactions, into: database, now: last)
    report("seed-month", count: total, bytes: nil, started: started, cpuStarted: cpu)
default:
    FileHandle.standardError.write(Data("usage: walletwatch-bench decode FILE | write N DATABASE | seed-month DATABASE TRANSACTIONS HISTORY\n".utf8))
    exit(64)
}
