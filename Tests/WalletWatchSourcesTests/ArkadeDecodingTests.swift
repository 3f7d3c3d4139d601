import Foundation
import Testing
import WalletWatchCore
@testable import WalletWatchSources

/// Arkade's gateway JSON decoded strictly, its streams framed, and VTXOs netted into
/// transactions. The JSON here is hand-written in the form the pinned contracts describe
/// (Tests/WalletWatchSimTests/Fixtures/specs/, from Fulmine v0.3.24 and arkd v0.9.15).
@Suite struct ArkadeDecodingTests {
    static let txA = String(repeating: "a", count: 64), txB = String(repeating: "b", count: 64), txC = String(repeating: "c", count: 64)
    static let script = "5120" + String(repeating: "1", count: 64)

    static func vtxoJSON(txid: String = txA, vout: Int = 0, amount: String = #""1000""#, spent: Bool = false, arkTxid: String = "",
                         settledBy: String = "", preconfirmed: Bool = true, commitments: [String] = [txC]) -> String {
        """
        {"outpoint":{"txid":"\(txid)","vout":\(vout)},"createdAt":"1795262400","expiresAt":"1797854400","amount":\(amount),
         "script":"\(script)","isPreconfirmed":\(preconfirmed),"isSwept":false,"isUnrolled":false,"isSpent":\(spent),
         "spentBy":"\(spent ? txB : "")","commitmentTxids":[\(commitments.map { "\"\($0)\"" }.joined(separator: ","))],
         "settledBy":"\(settledBy)","arkTxid":"\(arkTxid)","assets":[],"depth":1}
        """
    }

    static func decode<T>(_ text: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try JSONReader.read(Array(text.utf8), body)
    }

    @Test func aVTXOIsReadWithItsAmountAsADecimalString() throws {
        let vtxo = try Self.decode(Self.vtxoJSON(), ArkadeDecoding.vtxo)
        #expect(vtxo.outpoint == "\(Self.txA):0" && vtxo.amount == 1000 && vtxo.createdAt == 1_795_262_400 && vtxo.isPreconfirmed)
        // protojson readers take a JSON integer too.
        #expect(try Self.decode(Self.vtxoJSON(amount: "1000"), ArkadeDecoding.vtxo).amount == 1000)
    }

    @Test(arguments: [#""12.5""#, #""1e3""#, #""""#, #""-5""#, #"" 7""#, #""0x10""#, #""99999999999999999999""#, "12.5", #""2100000000000001""#])
    func anAmountThatIsNotAnIntegerIsRefused(amount: String) throws {
        let error = try #require(throws: JSONReadError.self) { try Self.decode(Self.vtxoJSON(amount: amount), ArkadeDecoding.vtxo) }
        #expect(error.description.contains("amount"), "\(error)")
    }

    @Test func aMissingFlagOrABadScriptIsRefused() throws {
        let missing = Self.vtxoJSON().replacingOccurrences(of: #""isSpent":false,"#, with: "")
        #expect(throws: JSONReadError.self) { try Self.decode(missing, ArkadeDecoding.vtxo) }
        let p2wpkh = Self.vtxoJSON().replacingOccurrences(of: Self.script, with: "0014" + String(repeating: "1", count: 40))
        let error = try #require(throws: JSONReadError.self) { try Self.decode(p2wpkh, ArkadeDecoding.vtxo) }
        #expect(error.description.contains("is not a taproot VTXO script"))
    }

    @Test func fulmineHistoryEntriesNeedExactlyOneTxidAndAKnownType() throws {
        func entry(type: String = "TX_TYPE_RECEIVED", ark: String = Self.txA, boarding: String = "", date: String = "2026-11-21T13:00:00+01:00") -> String {
            #"{"transactions":[{"date":"\#(date)","amount":"5000","commitmentTxid":"","arkTxid":"\#(ark)","boardingTxid":"\#(boarding)","type":"\#(type)","settledBy":""}]}"#
        }
        let read = try Self.decode(entry(), ArkadeDecoding.fulmineTransactions)
        #expect(read == [FulmineTransaction(date: Instant(iso8601: "2026-11-21T12:00:00Z"), amount: 5000, kind: .received, arkTxid: Self.txA)])
        let unknown = try #require(throws: JSONReadError.self) { try Self.decode(entry(type: "TX_TYPE_SWEPT"), ArkadeDecoding.fulmineTransactions) }
        #expect(unknown.description.contains("'TX_TYPE_SWEPT' is not a transaction type"))
        #expect(throws: JSONReadError.self) { try Self.decode(entry(type: "TX_TYPE_UNSPECIFIED"), ArkadeDecoding.fulmineTransactions) }
        let two = try #require(throws: JSONReadError.self) { try Self.decode(entry(boarding: Self.txB), ArkadeDecoding.fulmineTransactions) }
        #expect(two.description.contains("exactly one"))
        let mempool = try Self.decode(entry(ark: "", boarding: Self.txB, date: "0001-01-01T00:00:00Z"), ArkadeDecoding.fulmineTransactions)
        #expect(mempool.first?.date == nil && mempool.first?.isPendingBoarding == true)
    }

    @Test func fulmineInfoReadsTheNetworkFromTheAddressPrefix() throws {
        let info = try Self.decode(#"{"network":"NETWORK_UNSPECIFIED","addrPrefix":"ark","serverUrl":"","buildInfo":null,"pubkey":"","signerPubkey":""}"#,
                                   ArkadeDecoding.fulmineInfo)
        #expect(info.network == "bitcoin" && info.addressPrefix == "ark")
        #expect(throws: JSONReadError.self) {
            try Self.decode(#"{"network":"NETWORK_SIGNET","addrPrefix":"tark"}"#, ArkadeDecoding.fulmineInfo)
        }
    }

    @Test func indexerPagesAndNullPages() throws {
        let paged = try Self.decode(#"{"vtxos":[\#(Self.vtxoJSON())],"page":{"current":1,"next":2,"total":2}}"#, ArkadeDecoding.indexerPage)
        #expect(paged.vtxos.count == 1 && paged.position?.next == 2)
        let whole = try Self.decode(#"{"vtxos":[],"page":null}"#, ArkadeDecoding.indexerPage)
        #expect(whole.position == nil)
        #expect(throws: JSONReadError.self) { try Self.decode(#"{"vtxos":[],"page":{"current":"1","next":2,"total":2}}"#, ArkadeDecoding.indexerPage) }
    }

    // MARK: netting

    static func vtxo(_ txid: String, _ vout: Int = 0, amount: Int64, spentIn arkTxid: String = "", preconfirmed: Bool = true,
                     commitment: String = txC, created: Int64 = 1_795_262_400) -> ArkadeVtxo {
        ArkadeVtxo(outpoint: "\(txid):\(vout)", amount: amount, script: script, createdAt: created, expiresAt: 0, isPreconfirmed: preconfirmed,
                   isSwept: false, isUnrolled: false, isSpent: !arkTxid.isEmpty, spentBy: "", settledBy: "", arkTxid: arkTxid,
                   commitmentTxids: [commitment])
    }

    @Test func receivedThenSpentWithChangeNetsToOneInAndOneOut() {
        let received = Self.vtxo(Self.txA, amount: 80_000, spentIn: Self.txB)
        let change = Self.vtxo(Self.txB, 1, amount: 15_000, created: 1_795_262_500)
        let rows = ArkadeMapping.transactions(of: [received, change], source: "w")
        #expect(rows.map(\.txid) == ["arkd:w:\(Self.txA)", "arkd:w:\(Self.txB)"])
        #expect(rows.map(\.amount) == [80_000, -65_000])
        #expect(rows.allSatisfy { $0.status == .confirmed && $0.type == .ark })
        #expect(rows[1].date == Instant(millisecondsSinceEpoch: 1_795_262_500_000), "dated by the change it made")
        #expect(ArkadeMapping.balance(of: [received, change]).counted == 15_000)
    }

    @Test func aBatchLeafIsKeyedByItsCommitmentAndARefreshNetsToNothing() {
        let leaf = Self.vtxo(Self.txA, amount: 50_000, preconfirmed: false, commitment: Self.txC)
        #expect(ArkadeMapping.transactions(of: [leaf], source: "w").map(\.txid) == ["arkd:w:\(Self.txC)"])
        // A refresh: the old VTXO forfeited into batch txB, the same amount back out of it.
        var old = Self.vtxo(Self.txA, amount: 50_000, preconfirmed: false, commitment: Self.txC)
        old.isSpent = true
        old.settledBy = Self.txB
        let renewed = Self.vtxo(String(repeating: "d", count: 64), amount: 50_000, preconfirmed: false, commitment: Self.txB)
        let rows = ArkadeMapping.transactions(of: [old, renewed], source: "w")
        #expect(rows.map(\.txid) == ["arkd:w:\(Self.txC)"], "the refresh makes no row: \(rows.map(\.txid))")
    }

    @Test func aSweptVTXOIsNotASpendAndAnUnrolledOneIsAnExit() {
        var swept = Self.vtxo(Self.txA, amount: 9_000)
        swept.isSwept = true
        #expect(ArkadeMapping.transactions(of: [swept], source: "w").map(\.amount) == [9_000])
        #expect(swept.stored(at: Instant(millisecondsSinceEpoch: 0)).state == "swept")
        var unrolled = Self.vtxo(Self.txB, amount: 4_000)
        unrolled.isUnrolled = true
        let rows = ArkadeMapping.transactions(of: [unrolled], source: "w")
        #expect(rows.map(\.amount) == [4_000, -4_000])
        #expect(rows.last?.type == .exit && rows.last?.txid == "arkd:w:\(Self.txB):0")
        #expect(ArkadeMapping.balance(of: [swept, unrolled]).counted == 9_000)
    }

    /// The POST bodies walletwatch writes read back as the same strings through Foundation's
    /// parser, whatever they hold (a character beyond the BMP needs a surrogate pair).
    @Test func requestBodiesAreValidJSON() throws {
        let texts = ["tark1qqellv", "quote \" backslash \\ tab \t nul \u{0}", "café", "emoji 😀 𝄞", ""]
        let body = JSONText.object(["addresses": .strings(texts), "id": .string("x😀")])
        #expect(body.allSatisfy { $0 < 0x80 }, "ASCII only")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(parsed["addresses"] as? [String] == texts)
        #expect(parsed["id"] as? String == "x😀")
    }

    // MARK: streams

    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ArkadeStreamEvent] = []
        func add(_ event: ArkadeStreamEvent) { lock.lock(); list.append(event); lock.unlock() }
        var all: [ArkadeStreamEvent] { lock.lock(); defer { lock.unlock() }; return list }
    }

    static func feed(_ text: String, framing: ArkadeStreamFraming, chunk: Int) throws -> [ArkadeStreamEvent] {
        let events = Events()
        let consumer = ArkadeStreamConsumer(framing: framing) { events.add($0) }
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { try consumer.consume($0) }
        }
        return events.all
    }

    @Test(arguments: [1, 7, 4096])
    func serverSentEventsAreFramedWhateverTheChunks(chunk: Int) throws {
        let text = "data: {\"heartbeat\":{}}\n\n: comment\n\ndata: {\"event\":{\"txid\":\"\(Self.txA)\",\"scripts\":[]}}\r\n\r\ndata: {\"subscriptionStarted\":{}}\n\n"
        #expect(try Self.feed(text, framing: .serverSentEvents, chunk: chunk) == [.heartbeat, .change, .started])
        let lines = "{\"result\":{\"notification\":{\"txid\":\"\(Self.txA)\"}}}\n{\"result\":{\"notification\":{}}}\n"
        #expect(try Self.feed(lines, framing: .jsonLines, chunk: chunk) == [.change, .change])
    }

    @Test func streamErrorsAndUnknownMessagesAbortTheStream() throws {
        let failure = try #require(throws: JSONReadError.self) {
            try Self.feed("event: failure\ndata: {\"code\":14,\"message\":\"shutting down\"}\n\n", framing: .serverSentEvents, chunk: 64)
        }
        #expect(failure.description.contains("code 14: shutting down"))
        let unknown = try #require(throws: JSONReadError.self) { try Self.feed("data: {\"surprise\":{}}\n\n", framing: .serverSentEvents, chunk: 64) }
        #expect(unknown.description.contains("unknown kind"))
        #expect(throws: JSONReadError.self) { try Self.feed("{\"error\":{\"code\":2,\"message\":\"x\"}}\n", framing: .jsonLines, chunk: 64) }
        #expect(throws: JSONReadError.self) { try Self.feed("not json\n", framing: .jsonLines, chunk: 64) }
    }
}
