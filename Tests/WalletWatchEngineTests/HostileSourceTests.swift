import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

/// What a hostile or broken source may send where walletwatch expects a transaction id, an
/// outpoint or a printable name: refused by name without a trace in the database (ids, which
/// are stored, shown, tagged and sent back in later requests), or kept with its invisible
/// characters spelled out (a counterparty, which is only shown). Errors never carry a control
/// character: a terminal that prints them must not receive an escape sequence.
@Suite("Hostile sources: ids of the wrong shape, invisible characters")
struct HostileSourceTests {
    // MARK: - Esplora transaction ids

    /// Answers a hostile explorer might give instead of a txid, as JSON string literals.
    static let hostileTxids: [String] = [
        #""<script>alert(1)</script>""#,
        #""\u001b]0;PWNED\u0007""#,
        #""""#,
        #""20b984492b5264162a4c92c9a34bc7fa08b67d669de7b4c5982ad3cb28aaecf""#,
        #""../../blocks/tip/height?20b984492b5264162a4c92c9a34bc7fa08b67d669d""#,
        "42",
    ]

    /// A txid that is not 64 hexadecimal digits is refused as a source error naming the
    /// source, the endpoint and the field; nothing stored changes. (It would be stored,
    /// shown, tagged, and sent back to the explorer in `/txs/chain/:txid`.)
    @Test("a transaction id that is not 64 hex digits fails the source in one line and changes nothing",
          arguments: hostileTxids)
    func hostileTxid(literal: String) async throws {
        let valid = try EsploraReplayTests.load("20b984492b5264162a4c92c9a34bc7fa08b67d669de7b4c5982ad3cb28aaecf6")
        let address = "bc1qnzw0zfm5l3c9vztpp3aegx0j68zgqajyffr2r6"
        try await ReplayServer.run { server in
            let world = try ReplayWorld(server: server)
            let source = world.esplora("cold", asset: "cold", addresses: [address])
            server.serveEsplora([valid])
            let first = try await world.engine(now: EsploraReplayTests.now, sources: [source]).ingestor.ingest()
            #expect(first[0].ok, "\(first[0].error ?? "")")
            let before = try world.fingerprint()

            let text = String(decoding: valid.json, as: UTF8.self)
            let hostile = text.replacingOccurrences(of: "\"\(valid.txid)\"", with: literal)
            #expect(hostile != text)
            // A pass that wrongly succeeded would at least restamp the balance (fingerprinted with its time).
            server.serveEsplora([try RecordedTransaction(json: Array(hostile.utf8))])
            let report = try #require(try await world.engine(now: EsploraReplayTests.later, sources: [source]).ingestor.ingest().first)
            let reason = report.error ?? ""
            #expect(!report.ok)
            #expect(reason.hasPrefix("source 'cold': GET \(server.url)/address/[listed address 1 of 'cold']/txs: field [0].txid: "), "\(reason)")
            #expect(reason.hasSuffix("is not a transaction id (64 hexadecimal digits)") || reason.contains("expected a string"), "\(reason)")
            #expect(!reason.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(reason)")
            #expect(try world.fingerprint() == before)
            let run = try #require(try world.database.lastIngestRuns()["cold"])
            #expect(!run.ok && run.error == reason, "the failure is recorded with its one-line reason")
        }
    }

    // MARK: - barkd transaction ids and outpoints

    /// Where barkd names on-chain data walletwatch stores: a wallet transaction's txid, a VTXO's
    /// and a UTXO's outpoint.
    static let identifierFields: [(path: String, field: String, what: String)] = [
        ("/api/v1/onchain/transactions", "txid", "is not a transaction id (64 hexadecimal digits)"),
        ("/api/v1/wallet/vtxos", "id", "is not an outpoint (txid:vout: 64 hexadecimal digits, a colon, an output index)"),
        ("/api/v1/onchain/utxos", "outpoint", "is not an outpoint (txid:vout: 64 hexadecimal digits, a colon, an output index)"),
    ]

    @Test("a transaction id or outpoint of the wrong shape fails the source in one line and changes nothing",
          arguments: identifierFields.map(\.path))
    func hostileIdentifier(path: String) async throws {
        let (_, field, what) = try #require(Self.identifierFields.first { $0.path == path })
        let hostile = ["<script>alert(1)</script>", "\u{1B}]0;PWNED\u{07}", "", BarkdReplayTests.hex64(1, 2) + ":01",
                       String(BarkdReplayTests.hex64(1, 2).dropLast()) + ":0", "<script>alert(1)</script>:0"]
            + (field == "txid" ? [BarkdReplayTests.hex64(1, 2) + ":0"] : [BarkdReplayTests.hex64(1, 2)])
        try await ReplayServer.run { server in
            let served = try BarkdReplayTests.serve("v0.6.0-release", mode: .everyProperty, on: server)
            let world = try ReplayWorld(server: server)
            let first = try await world.engine(now: BarkdReplayTests.now, sources: [world.barkd()]).ingestor.ingest()
            #expect(first[0].ok, "\(first[0].error ?? "")")
            let before = try world.fingerprint()
            // Something new at the daemon too, which a pass that wrongly succeeded would store.
            server.answer("/api/v1/history", json: #"""
                [{"id": 4242, "status": "successful", "subsystem": {"name": "bark.arkoor", "kind": "receive"},
                  "intended_balance_sat": 1, "effective_balance_sat": 1, "offchain_fee_sat": 0, "sent_to": [], "received_on": [],
                  "input_vtxos": [], "output_vtxos": [], "exited_vtxos": [], "time": {"created_at": "2026-11-21T11:00:00Z", "updated_at": "2026-11-21T11:00:00Z"}}]
                """#)
            for value in hostile {
                var list = try #require(served[path] as? [[String: Any]])
                list[0][field] = value
                let body = try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys])
                server.answer(path, with: ReplayAnswer(body: Array(body)))
                let report = try #require(try await world.engine(now: BarkdReplayTests.later, sources: [world.barkd()]).ingestor.ingest().first)
                let reason = report.error ?? ""
                #expect(!report.ok, "\(value.debugDescription) was accepted")
                #expect(reason.hasPrefix("source 'bark': GET \(server.url)\(path): field [0].\(field): '"), "\(reason)")
                #expect(reason.hasSuffix(what), "\(reason)")
                #expect(!reason.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(reason)")
                #expect(!reason.contains("replay-token"))
                #expect(try world.fingerprint() == before, "\(value.debugDescription) changed stored data")
            }
        }
    }

    // MARK: - Stored text

    /// `ESC ] 0 ; title BEL` sets a terminal's title: shown in `tx list`, a stored counterparty
    /// must not carry it.
    @Test("a counterparty or subsystem name with invisible characters is stored and reported with them spelled out")
    func invisibleCharacters() async throws {
        let hostile = "\u{1B}]0;PWNED\u{07}"
        let spelled = #"\u{1b}]0;PWNED\u{7}"#
        // Esplora: the recorded transaction, its input's address made hostile (as an explorer could send it).
        let recorded = try EsploraReplayTests.load("20b984492b5264162a4c92c9a34bc7fa08b67d669de7b4c5982ad3cb28aaecf6")
        let output = "bc1qnzw0zfm5l3c9vztpp3aegx0j68zgqajyffr2r6"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(recorded.json)) as? [String: Any])
        var inputs = try #require(object["vin"] as? [[String: Any]])
        var prevout = try #require(inputs[0]["prevout"] as? [String: Any])
        prevout["scriptpubkey_address"] = "bc1q" + hostile
        inputs[0]["prevout"] = prevout
        object["vin"] = inputs
        let json = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        // barkd: a movement received on a hostile destination, from a hostile subsystem.
        let movement = #"""
            [{"id": 1, "status": "successful", "subsystem": {"name": "bark.\u001b]0;PWNED\u0007", "kind": "receive"},
              "intended_balance_sat": 5, "effective_balance_sat": 5, "offchain_fee_sat": 0, "sent_to": [],
              "received_on": [{"destination": {"type": "custom", "value": "pay\u001b]0;PWNED\u0007"}, "amount_sat": 5}],
              "input_vtxos": [], "output_vtxos": [], "exited_vtxos": [], "time": {"created_at": "2026-11-21T11:00:00Z", "updated_at": "2026-11-21T11:00:00Z"}}]
            """#
        try await ReplayServer.run { server in
            try BarkdReplayTests.serve("v0.6.0-release", mode: .requiredOnly, on: server)
            server.answer("/api/v1/history", json: movement)
            server.serveEsplora([try RecordedTransaction(json: json)])
            let world = try ReplayWorld(server: server)
            // The hostile address paid the watched one: it is the counterparty.
            let sources = [world.barkd(), world.esplora("cold", asset: "cold", addresses: [output])]
            let reports = try await world.engine(now: EsploraReplayTests.now, sources: sources).ingestor.ingest()
            #expect(reports.map(\.ok) == [true, true], "\(reports.map(\.error))")
            let cold = try #require(try world.database.transactions(TransactionFilter(asset: "cold")).first).transaction
            #expect(cold.counterparty == "bc1q" + spelled)
            let ark = try #require(try world.database.transactions(txid: "ark:bark:1").first).transaction
            #expect(ark.counterparty == "pay" + spelled && ark.type == .ark)
            #expect(reports[0].warnings == ["movement subsystem 'bark.\(spelled)' is unknown; stored as type ark"])
            let logged = world.logs.entries.map(\.text).joined()
            #expect(!logged.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "the escape reached the logs")
        }
    }
}
