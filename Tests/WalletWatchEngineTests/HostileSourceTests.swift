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
            let first = try await world.engine(now: EsploraReplayTests.now, sources: [source]).ingest()
            #expect(first[0].ok, "\(first[0].error ?? "")")
            let before = try world.fingerprint()

            let text = String(decoding: valid.json, as: UTF8.self)
            let hostile = text.replacingOccurrences(of: "\"\(valid.txid)\"", with: literal)
            #expect(hostile != text)
            // A pass that wrongly succeeded would at least restamp the balance (fingerprinted with its time).
            server.serveEsplora([try RecordedTransaction(json: Array(hostile.utf8))])
            let report = try #require(try await world.engine(now: EsploraReplayTests.later, sources: [source]).ingest().first)
            let reason = report.error ?? ""
            #expect(!report.ok)
            #expect(reason.hasPrefix("source 'cold': GET \(server.url)/address/\(address)/txs: field [0].txid: "), "\(reason)")
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
            let first = try await world.engine(now: BarkdReplayTests.now, sources: [world.barkd()]).ingest()
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
                let report = try #require(try await world.engine(now: BarkdReplayTests.later, sources: [world.barkd()]).ingest().first)
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
}
