import Foundation
@testable import WalletWatchSim

/// Small helpers shared by the simulator's tests.
enum Fixture {
    static let now = SimTime(iso8601: "2026-11-21T12:00:00Z")!
    static let address = "bc1qdpekljy00yhuluyl4kehf5wq0stu2zkjsjdq86"
    static let otherAddress = "bc1q60jp3q4f7y4wqr2ktkrzx7xv2pz0xr5amnxn3j"

    /// A 64-hex txid made from a number.
    static func txid(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// A wallet "ark" with token "t", three movements and a balance of 150 000 sat.
    static func arkWallet(token: String? = "t") -> WalletScenario {
        WalletScenario(
            name: "ark", token: token, balance: BarkdBalance(spendableSat: 150_000),
            onchainBalance: BarkdOnchainBalance(confirmedSat: 80_000, untrustedPendingSat: 5_000),
            movements: [
                BarkdMovement(id: 1, subsystem: .board, effectiveBalanceSat: 100_000,
                              time: .completed(at: at("2026-11-01T10:00:00Z"))),
                BarkdMovement(id: 2, subsystem: .arkoorReceive, effectiveBalanceSat: 70_000,
                              receivedOn: [.init(.init(.ark, "ark1qown"), amountSat: 70_000)],
                              time: .completed(at: at("2026-11-05T10:00:00Z"))),
                BarkdMovement(id: 3, subsystem: .lightningSend, intendedBalanceSat: -20_000, effectiveBalanceSat: -20_050,
                              offchainFeeSat: 50, sentTo: [.init(.init(.invoice, "lnbc200u1ptest"), amountSat: 20_000)],
                              time: .completed(at: at("2026-11-10T10:00:00Z"))),
            ],
            onchainTransactions: [
                BarkdWalletTx(txid: txid(0xA1), balanceChangeSat: 80_000, confirmation: BarkdBlockRef(height: 869_000)),
                BarkdWalletTx(txid: txid(0xA2), onchainFeeSat: 141, balanceChangeSat: 5_000),
            ],
            vtxos: [
                BarkdVtxo(id: txid(0xB1) + ":0", amountSat: 100_000, expiryHeight: 870_100),
                BarkdVtxo(id: txid(0xB2) + ":1", amountSat: 50_000, expiryHeight: 874_000),
                BarkdVtxo(id: txid(0xB3) + ":0", amountSat: 9_000, expiryHeight: 868_000, state: .spent),
            ],
            utxos: [BarkdUtxo(outpoint: txid(0xA1) + ":0", amountSat: 80_000, confirmationHeight: 869_000)])
    }

    static func at(_ text: String) -> SimTime { SimTime(iso8601: text)! }

    /// Starts a simulator, runs `body`, and stops it whatever happens.
    static func withSimulator<T>(
        _ scenario: Scenario, _ body: (Simulator) async throws -> T
    ) async throws -> T {
        let simulator = try await Simulator.start(scenario: scenario)
        do {
            let result = try await body(simulator)
            await simulator.stop()
            return result
        } catch {
            await simulator.stop()
            throw error
        }
    }
}

/// The process's resident set size in bytes (from /proc/self/statm).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A value shared between a test and the probe's reader thread.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
