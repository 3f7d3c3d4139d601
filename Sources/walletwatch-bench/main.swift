import Foundation
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

// walletwatch-bench: the ingest's steps measured one at a time, for scripts/bench.
//   walletwatch-bench decode FILE   decode a saved barkd history body (64 KiB chunks), no network, no database
//   walletwatch-bench write N DB    write N transactions shaped like barkd's through one ingest session
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

/// Collects nothing: the decoder's output is only counted.
final class Counter: @unchecked Sendable { var count = 0 }

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "decode" where arguments.count == 3:
    let body = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let counter = Counter()
    let consumer = BarkdHistoryDecoder { movement in
        _ = MovementMapping.transaction(movement, source: "ark")
        counter.count += 1
    }
    let started = ContinuousClock.now, cpu = cpuSeconds()
    try body.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 65536)
            try consumer.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
    try consumer.finish()
    report("decode", count: counter.count, bytes: body.count, started: started, cpuStarted: cpu)
case "write" where arguments.count == 4:
    let count = Int(arguments[2]) ?? 0
    let database = try AppDatabase.open(path: arguments[3])
    let now = Instant(iso8601: "2026-11-21T12:00:00Z")!
    let transactions = (0..<count).map { index in
        ObservedTransaction(txid: "ark:ark:\(count - index)", amount: index % 3 == 0 ? -12_345 : 54_321, type: .ark,
                            status: .confirmed, date: now.adding(seconds: -Int64(index) * 300), fee: 10, counterparty: "ark1qexampledestination")
    }
    let started = ContinuousClock.now, cpu = cpuSeconds()
    _ = try await database.ingest(source: "ark", startedAt: now, now: now) { session in
        let asset = try session.asset(kind: .ark, name: "Ark wallet")
        var start = 0
        while start < transactions.count {
            let end = min(transactions.count, start + 2048)
            try session.record(Array(transactions[start..<end]), assetID: asset)
            start = end
        }
    }
    report("write", count: count, bytes: nil, started: started, cpuStarted: cpu)
default:
    FileHandle.standardError.write(Data("usage: walletwatch-bench decode FILE | write N DATABASE\n".utf8))
    exit(64)
}
