import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// barkd's own OpenAPI documents (releases 0.4.0, 0.5.0, 0.6.0 and master, see
/// Fixtures/PROVENANCE.md): answers made from each version's schemas are served to the real
/// client over libcurl and ingested into a database file; what is stored must be what the
/// answers say, by SPEC.md section 4's rules. Also bark's documented example movements, and
/// hostile transaction ids and outpoints.
@Suite("barkd: every documented API version replayed through the engine")
struct BarkdReplayTests {
    static let now = "2026-11-21T12:00:00Z"
    static let later = "2026-11-21T12:10:00Z"
    static let tipHeight: Int64 = 870_000

    static let versions = ["v0.4.0", "v0.5.0", "v0.6.0-release", "master-2c8c442"]

    /// The endpoints an ingest reads (BarkdClient), and how many elements a list answer gets.
    static let endpoints: [(path: String, count: Int)] = [
        ("/api/v1/wallet/balance", 1), ("/api/v1/onchain/balance", 1), ("/api/v1/history", 8),
        ("/api/v1/onchain/transactions", 2), ("/api/v1/wallet/vtxos", 4), ("/api/v1/onchain/utxos", 2),
        ("/api/v1/wallet/ark-info", 1), ("/api/v1/bitcoin/tip", 1),
    ]
    static let notificationsPath = "/api/v1/notifications/wait"

    /// ISO 8601 times as a daemon may write them (chrono writes the local offset and up to nine
    /// fraction digits), with their instant in milliseconds computed by hand: days since
    /// 1970-01-01 times 86,400 s, plus the time of day, minus the offset; fractions beyond
    /// the millisecond are cut off (SPEC.md section 2 stores milliseconds).
    static let times: [(text: String, milliseconds: Int64)] = [
        ("2026-03-29T01:59:59Z", 1_774_749_599_000),                   // 20,541 days (2026-03-29) + 01:59:59
        ("2026-03-29T03:59:59.5+02:00", 1_774_749_599_500),            // the same second, two hours east, +500 ms
        ("2025-12-31T23:59:59.999-05:00", 1_767_243_599_999),          // 2026-01-01T04:59:59.999Z
        ("2026-02-28T12:34:56.123456Z", 1_772_282_096_123),            // six digits: microseconds cut to .123
        ("2026-02-28T14:34:56.123456789+02:00", 1_772_282_096_123),    // nine digits, the same instant
        ("2026-02-28T12:34:56.000+00:00", 1_772_282_096_000),          // three digits, +00:00
        ("2026-06-15T08:00:00.1-09:30", 1_781_544_600_100),            // 2026-06-15T17:30:00.100Z (a half-hour zone)
        ("2024-02-29T23:59:59.999999999+00:00", 1_709_251_199_999),    // a leap day's last nanosecond
        ("2025-11-27T14:03:21.123456789+01:00", 1_764_248_601_123),    // 2025-11-27T13:03:21.123Z
        ("2026-01-01T00:00:00.042+14:00", 1_767_175_200_042),          // 2025-12-31T10:00:00.042Z (UTC+14)
    ]

    static func milliseconds(of text: String) throws -> Int64 {
        try #require(times.first { $0.text == text }, "\(text) is not in the table").milliseconds
    }

    /// 64 hex digits made of two numbers (a txid's shape).
    static func hex64(_ tag: Int, _ variant: Int) -> String {
        String(format: "%032llx%032llx", Int64(tag), Int64(variant))
    }

    /// The subsystems a history holds, in turn: SPEC.md section 4's seven and an unknown one.
    static let subsystems = ["bark.arkoor", "bark.round", "bark.lightning_send", "bark.lightning_receive",
                             "bark.board", "bark.offboard", "bark.exit", "bark.teleport"]

    /// SPEC.md section 4: the transaction type of a subsystem (an unknown one is ark).
    static func type(ofSubsystem name: String) -> TransactionType {
        switch name {
        case "bark.lightning_send", "bark.lightning_receive": .lightning
        case "bark.board": .board
        case "bark.offboard": .offboard
        case "bark.exit": .exit
        default: .ark
        }
    }

    /// SPEC.md section 4: pending -> pending, successful -> confirmed, failed and canceled -> failed.
    static func status(ofMovement text: String) -> TransactionStatus {
        switch text {
        case "pending": .pending
        case "successful": .confirmed
        default: .failed
        }
    }

    /// What the OpenAPI documents type only as strings, shaped as barkd sends them.
    static let values: [String: @Sendable (Int) -> Any] = [
        "WalletTxInfo.txid": { BarkdReplayTests.hex64(0x7c, $0) },
        "VtxoInfo.id": { BarkdReplayTests.hex64(0x7e, $0) + ":\($0)" },
        "VtxoInfo.chain_anchor": { BarkdReplayTests.hex64(0xa0, $0) + ":0" },
        "UtxoInfo.outpoint": { BarkdReplayTests.hex64(0x0c, $0) + ":\($0 + 1)" },
        "BlockRef.hash": { "00000000000000000001" + String(BarkdReplayTests.hex64(0xb1, $0).suffix(44)) },
        "BlockRef.height": { 869_000 + $0 },
        "TipResponse.tip_height": { _ in BarkdReplayTests.tipHeight },
        // bark serves the deprecated name from the new one (bark-json's ArkInfo), so both agree.
        "ArkInfo.vtxo_lifetime": { _ in 4032 },
        "ArkInfo.vtxo_expiry_delta": { _ in 4032 },
        "MovementSubsystem.name": { BarkdReplayTests.subsystems[$0 % BarkdReplayTests.subsystems.count] },
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        let version: String
        let mode: OpenAPIInstances.Mode
        var withoutDeprecated = false
        var testDescription: String { "\(version), \(mode)\(withoutDeprecated ? ", without the deprecated fields" : "")" }
    }

    /// Every version in every mode, and master without its deprecated fields (what the release
    /// that removes `vtxo_expiry_delta` will send).
    static let cases: [Case] = versions.flatMap { version in OpenAPIInstances.Mode.allCases.map { Case(version: version, mode: $0) } }
        + [Case(version: "master-2c8c442", mode: .requiredOnly, withoutDeprecated: true),
           Case(version: "master-2c8c442", mode: .everyProperty, withoutDeprecated: true)]

    static func document(_ version: String) throws -> [String: Any] {
        try #require(try ReplayWorld.fixtureJSON("barkd/openapi-\(version).json") as? [String: Any])
    }

    /// Serves answers made from `version`'s schemas; returns them as served, parsed back.
    @discardableResult
    static func serve(_ version: String, mode: OpenAPIInstances.Mode, withoutDeprecated: Bool = false,
                      on server: ReplayServer) throws -> [String: Any] {
        let generator = OpenAPIInstances(document: try document(version), mode: mode, withoutDeprecated: withoutDeprecated,
                                         values: values, dates: times.map(\.text))
        var served: [String: Any] = [:]
        for (path, count) in endpoints + [(notificationsPath, 1)] {
            let answer = generator.answer(to: path, count: count)
            #expect(!(answer is NSNull), "\(version) documents no answer of \(path)")
            let bytes = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])
            server.answer(path, with: ReplayAnswer(body: Array(bytes)))
            served[path] = try JSONSerialization.jsonObject(with: bytes)
        }
        return served
    }

    static func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    /// The first destination's value of a list of `MovementDestination`s, if any.
    static func firstDestination(_ value: Any?) -> String? {
        ((value as? [[String: Any]])?.first?["destination"] as? [String: Any])?["value"] as? String
    }

    @Test("answers made from each version's schemas are stored as they say", arguments: cases)
    func schemas(_ testCase: Case) async throws {
        try await ReplayServer.run { server in
            let served = try Self.serve(testCase.version, mode: testCase.mode, withoutDeprecated: testCase.withoutDeprecated, on: server)
            let world = try ReplayWorld(server: server)
            let source = world.barkd()
            let engine = world.engine(now: Self.now, sources: [source])
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            try Self.expectStored(served, in: world, source: source.name)
            #expect(report.warnings == ["movement subsystem 'bark.teleport' is unknown; stored as type ark"])

            // The long poll (the daemon's), through the same client.
            let client = BarkdClient(source: source.name, baseURL: server.url, token: BearerToken("replay-token"), http: engine.http)
            let batch = try await client.waitForNotifications(since: nil, timeout: .seconds(20))
            let wait = try #require(served[Self.notificationsPath] as? [String: Any])
            let notifications = try #require(wait["notifications"] as? [[String: Any]])
            #expect(batch.notifications.map(\.kind.rawValue) == notifications.map { $0["type"] as? String ?? "" })
            #expect(batch.notifications.map(\.movementID) == notifications.map { Self.int(($0["movement"] as? [String: Any])?["id"]) })
            #expect(batch.lastPushedAt == wait["last_pushed_at"] as? String)

            // The same answers again change nothing.
            let again = try await world.engine(now: Self.later, sources: [source]).ingestor.ingest()
            #expect(again.first?.ok == true && again.first?.counts == IngestCounts(), "\(again.first?.error ?? "")")
        }
    }

    /// Checks every stored figure of the source against the served answers.
    static func expectStored(_ served: [String: Any], in world: ReplayWorld, source: String) throws {
        let balance = try #require(served["/api/v1/wallet/balance"] as? [String: Any])
        let storedArk = try #require(try world.database.arkBalances()[source]).balance
        #expect(storedArk == ArkBalance(
            spendable: try #require(int(balance["spendable_sat"])), pendingLightningSend: try #require(int(balance["pending_lightning_send_sat"])),
            claimableLightningReceive: try #require(int(balance["claimable_lightning_receive_sat"])),
            pendingInRound: try #require(int(balance["pending_in_round_sat"])), pendingExit: int(balance["pending_exit_sat"]),
            pendingBoard: try #require(int(balance["pending_board_sat"]))))

        let onchain = try #require(served["/api/v1/onchain/balance"] as? [String: Any])
        #expect(try #require(try world.database.onchainBalances()[source]).balance == OnchainBalance(
            total: try #require(int(onchain["total_sat"])), trustedSpendable: try #require(int(onchain["trusted_spendable_sat"])),
            immature: try #require(int(onchain["immature_sat"])), trustedPending: try #require(int(onchain["trusted_pending_sat"])),
            untrustedPending: try #require(int(onchain["untrusted_pending_sat"])), confirmed: try #require(int(onchain["confirmed_sat"]))))

        let movements = try #require(served["/api/v1/history"] as? [[String: Any]])
        let arkRows = Dictionary(uniqueKeysWithValues: try world.database.transactions(TransactionFilter(asset: "\(source) ark")).map {
            ($0.transaction.txid, $0.transaction)
        })
        #expect(arkRows.count == movements.count)
        for movement in movements {
            let id = try #require(int(movement["id"]))
            let stored = try #require(arkRows["ark:\(source):\(id)"], "movement \(id)")
            let effective = try #require(int(movement["effective_balance_sat"]))
            let time = try #require(movement["time"] as? [String: Any])
            let dated = (time["completed_at"] as? String) ?? (time["created_at"] as? String) ?? ""
            let subsystem = try #require((movement["subsystem"] as? [String: Any])?["name"] as? String)
            #expect(stored.amount == effective && stored.direction == (effective < 0 ? .outgoing : .incoming), "movement \(id)")
            #expect(stored.type == type(ofSubsystem: subsystem), "movement \(id)")
            #expect(stored.status == status(ofMovement: movement["status"] as? String ?? ""), "movement \(id)")
            #expect(stored.date == Instant(millisecondsSinceEpoch: try milliseconds(of: dated)), "movement \(id)")
            #expect(stored.fee == int(movement["offchain_fee_sat"]).map { Int128($0) }, "movement \(id)")
            #expect(stored.counterparty == firstDestination(effective < 0 ? movement["sent_to"] : movement["received_on"]), "movement \(id)")
        }

        let walletTransactions = try #require(served["/api/v1/onchain/transactions"] as? [[String: Any]])
        let onchainRows = Dictionary(uniqueKeysWithValues: try world.database.transactions(TransactionFilter(asset: "\(source) on-chain")).map {
            ($0.transaction.txid, $0.transaction)
        })
        #expect(onchainRows.count == walletTransactions.count)
        for transaction in walletTransactions {
            let txid = try #require(transaction["txid"] as? String)
            let stored = try #require(onchainRows[txid], "\(txid)")
            let block = transaction["confirmation"] as? [String: Any]
            #expect(stored.amount == int(transaction["balance_change_sat"]).map { Int128($0) } && stored.type == .onchain, "\(txid)")
            #expect(stored.status == (block == nil ? .pending : .confirmed), "\(txid)")
            #expect(stored.fee == int(transaction["onchain_fee_sat"]).map { Int128($0) }, "\(txid)")
            // barkd gives no time: a mined transaction is dated ten minutes a block before now.
            let depth = try block.map { tipHeight - (try #require(int($0["height"]))) } ?? 0
            #expect(stored.date == Instant.at(now).adding(seconds: -depth * 600), "\(txid)")
        }

        let vtxos = try #require(served["/api/v1/wallet/vtxos"] as? [[String: Any]])
        let expectedVTXOs = Set(try vtxos.map {
            VTXO(id: try #require($0["id"] as? String), amount: try #require(int($0["amount_sat"])),
                 expiryHeight: try #require(int($0["expiry_height"])), state: try #require(($0["state"] as? [String: Any])?["type"] as? String))
        })
        #expect(Set(try world.database.vtxos().filter { $0.source == source }.map(\.vtxo)) == expectedVTXOs)
        #expect(Set(expectedVTXOs.map(\.state)).count == min(vtxos.count, 4), "the VTXOs cover the documented states")

        let utxos = try #require(served["/api/v1/onchain/utxos"] as? [[String: Any]])
        let storedUTXOs = try world.rows("SELECT outpoint, amount, confirmation_height FROM utxos WHERE source = '\(source)' ORDER BY outpoint")
        var expectedUTXOs: [[String: String]] = []
        for utxo in utxos {
            let outpoint: String = try #require(utxo["outpoint"] as? String)
            let amount: Int64 = try #require(int(utxo["amount_sat"]))
            let height: String = int(utxo["confirmation_height"]).map { String($0) } ?? "null"
            expectedUTXOs.append(["outpoint": outpoint, "amount": String(amount), "confirmation_height": height])
        }
        expectedUTXOs.sort { ($0["outpoint"] ?? "") < ($1["outpoint"] ?? "") }
        #expect(storedUTXOs == expectedUTXOs)

        let info = try #require(served["/api/v1/wallet/ark-info"] as? [String: Any])
        let lifetime = int(info["vtxo_lifetime"]) ?? int(info["vtxo_expiry_delta"])
        #expect(try world.rows("SELECT network, server_pubkey, round_interval, vtxo_expiry_delta FROM ark_info WHERE source = '\(source)'") == [[
            "network": info["network"] as? String ?? "?", "server_pubkey": info["server_pubkey"] as? String ?? "?",
            "round_interval": info["round_interval"] as? String ?? "?", "vtxo_expiry_delta": lifetime.map(String.init) ?? "null",
        ]])

        let tip = try #require(served["/api/v1/bitcoin/tip"] as? [String: Any])
        #expect(try world.database.chainTips()[source] == int(tip["tip_height"]))
    }

    // MARK: - Times

    /// Each time form as a movement's `created_at` (no `completed_at`) or `completed_at`; the
    /// other endpoints answer what 0.6.0's required properties alone make (no
    /// `pending_exit_sat`, no `metadata`, no `confirmation`).
    @Test("times with any offset and 0 to 9 fraction digits are stored at the right millisecond")
    func times() async throws {
        try await ReplayServer.run { server in
            try Self.serve("v0.6.0-release", mode: .requiredOnly, on: server)
            var movements: [String] = []
            for (index, time) in Self.times.enumerated() {
                let stamps = index % 2 == 0
                    ? #""created_at": "\#(time.text)", "updated_at": "\#(time.text)""#
                    : #""created_at": "2020-01-01T00:00:00Z", "updated_at": "\#(time.text)", "completed_at": "\#(time.text)""#
                movements.append(#"""
                    {"id": \#(index + 1), "status": "successful", "subsystem": {"name": "bark.arkoor", "kind": "receive"},
                     "intended_balance_sat": 1000, "effective_balance_sat": 1000, "offchain_fee_sat": 0, "sent_to": [], "received_on": [],
                     "input_vtxos": [], "output_vtxos": [], "exited_vtxos": [], "time": {\#(stamps)}}
                    """#)
            }
            server.answer("/api/v1/history", json: "[" + movements.joined(separator: ",") + "]")
            let world = try ReplayWorld(server: server)
            let report = try #require(try await world.engine(now: Self.now, sources: [world.barkd()]).ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            #expect(try world.database.arkBalances()["bark"]?.balance.pendingExit == nil)
            for (index, time) in Self.times.enumerated() {
                let stored = try #require(try world.database.transactions(txid: "ark:bark:\(index + 1)").first).transaction
                #expect(stored.date.millisecondsSinceEpoch == time.milliseconds, "\(time.text)")
            }
        }
    }

    // MARK: - bark's documented examples

    /// bark's docs/movements.md shows whole movements, abbreviated by their authors: no `id`,
    /// no `time`, and empty lists often left out. The test completes `id` (1, 2, ...) and
    /// `time` (a creation time; no `completed_at`), nothing else.
    @Test("bark's documented example movements are stored as they say")
    func documentedExamples() async throws {
        let examples = try #require(try ReplayWorld.fixtureJSON("barkd/docs-movement-examples.json") as? [[String: Any]])
        #expect(examples.count == 11)
        #expect(examples.allSatisfy { $0["id"] == nil && $0["time"] == nil }, "the examples still lack id and time")
        let completed: [[String: Any]] = examples.enumerated().map { index, example in
            var movement = example
            movement["id"] = index + 1
            movement["time"] = ["created_at": Self.times[index % Self.times.count].text, "updated_at": Self.times[index % Self.times.count].text]
            return movement
        }
        let body = try JSONSerialization.data(withJSONObject: completed, options: [.sortedKeys])
        // The examples as Foundation parses them back, for the closure (Data is Sendable).
        let exampleBytes = try JSONSerialization.data(withJSONObject: examples, options: [.sortedKeys])
        try await ReplayServer.run { server in
            let examples = try #require(try JSONSerialization.jsonObject(with: exampleBytes) as? [[String: Any]])
            try Self.serve("v0.6.0-release", mode: .requiredOnly, on: server)
            server.answer("/api/v1/history", with: ReplayAnswer(body: Array(body)))
            let world = try ReplayWorld(server: server)
            let report = try #require(try await world.engine(now: Self.now, sources: [world.barkd()]).ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            #expect(report.warnings.isEmpty, "every documented subsystem is known")
            let rows = try world.database.transactions(TransactionFilter(asset: "bark ark"))
            #expect(rows.count == examples.count)
            for (index, example) in examples.enumerated() {
                let stored = try #require(try world.database.transactions(txid: "ark:bark:\(index + 1)").first).transaction
                let effective = try #require(Self.int(example["effective_balance_sat"]))
                let subsystem = try #require((example["subsystem"] as? [String: Any])?["name"] as? String)
                #expect(stored.amount == effective, "example \(index + 1)")
                #expect(stored.type == Self.type(ofSubsystem: subsystem), "example \(index + 1)")
                #expect(stored.status == .confirmed, "example \(index + 1) is successful")
                #expect(stored.fee == Self.int(example["offchain_fee_sat"]).map { Int128($0) }, "example \(index + 1)")
                #expect(stored.counterparty == Self.firstDestination(effective < 0 ? example["sent_to"] : example["received_on"]), "example \(index + 1)")
                #expect(stored.date == Instant(millisecondsSinceEpoch: Self.times[index % Self.times.count].milliseconds), "example \(index + 1)")
            }
        }
    }
}
