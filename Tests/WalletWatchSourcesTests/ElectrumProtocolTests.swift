import Foundation
import Testing
@testable import WalletWatchSources

/// The Electrum protocol's own worked example (protocol-basics.rst, "Status", copied into
/// WalletWatchBitcoinTests/Fixtures with its provenance): the status of its history, computed
/// the way walletwatch checks every history a server sends, and the JSON-RPC lines walletwatch
/// writes and reads.
@Suite("Electrum: the protocol's status, and its JSON-RPC lines")
struct ElectrumProtocolTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WalletWatchBitcoinTests/Fixtures/electrum-protocol/protocol-basics.rst")

    /// The example's `get_history` answer, read out of the document as the server wrote it.
    static func exampleHistory() throws -> [ScriptHistoryEntry] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\{'tx_hash': '([0-9a-f]{64})', 'height': (-?\d+)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            ScriptHistoryEntry(txid: String(text[Range(match.range(at: 1), in: text)!]), height: Int64(text[Range(match.range(at: 2), in: text)!])!)
        }
    }

    @Test("the status of the protocol's example history is the one the document gives")
    func statusOfTheExample() throws {
        let history = try Self.exampleHistory()
        #expect(history.count == 6)
        #expect(history.map(\.height) == [2472, 2473, 2473, 0, 0, -1])
        #expect(ElectrumClient.status(of: history) == "78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d")
        // Any other order, or a height moved, is another status: a server cannot reorder
        // what it says and still have its status check out.
        #expect(ElectrumClient.status(of: Array(history.reversed())) != "78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d")
        var moved = history
        moved[5].height = 0
        #expect(ElectrumClient.status(of: moved) != "78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d")
        #expect(ElectrumClient.status(of: []) == nil)
    }

    @Test("a call is one line of JSON-RPC 2.0 with its id, its strings escaped")
    func callLines() {
        let call = ElectrumCall("server.version", [.string("walletwatch \"1\"\n"), .strings(["1.4", "1.6"])])
        #expect(String(decoding: call.line(id: 7), as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":7,"method":"server.version","params":["walletwatch \"1\"\n",["1.4","1.6"]]}"#)
        #expect(String(decoding: ElectrumCall("blockchain.block.header", [.integer(42)]).line(id: 1), as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":1,"method":"blockchain.block.header","params":[42]}"#)
    }

    @Test("answers, errors and notifications are read; anything else is not JSON-RPC", arguments: [
        (#"{"jsonrpc": "2.0", "result": [1, 2], "id": 3}"#, "reply 3 result [1, 2]"),
        (#"{"jsonrpc":"2.0","error":{"code":10001,"message":"history too large"},"id":4}"#, "reply 4 error 10001 history too large"),
        (#"{"jsonrpc":"2.0","method":"blockchain.scripthash.subscribe","params":["ab","cd"]}"#, "notification blockchain.scripthash.subscribe"),
        (#"{"jsonrpc":"2.0","id":5}"#, "refused"),
        (#"{"jsonrpc":"2.0","result":null}"#, "refused"),
        (#"{"id":"x","result":1}"#, "refused"),
        (#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"invalid JSON"},"id":null}"#, "unaddressed error -32700 invalid JSON"),
    ])
    func messages(line: String, expected: String) {
        let described: String
        do {
            let message = try JSONReader.read(Array(line.utf8)) { try ElectrumMessage(&$0) }
            switch message {
            case .reply(let id, .result(let bytes)): described = "reply \(id) result \(String(decoding: bytes, as: UTF8.self))"
            case .reply(let id, .error(let code, let message)): described = "reply \(id) error \(code.map(String.init) ?? "-") \(message)"
            case .notification(let notification): described = "notification \(notification.method)"
            }
        } catch let error as ElectrumUnaddressedError {
            described = "unaddressed error \(error.code.map(String.init) ?? "-") \(error.message)"
        } catch {
            described = "refused"
        }
        #expect(described == expected)
    }

    @Test("only protocol versions 1.4 to 1.6 are spoken; a history too large says how to raise the limit")
    func versionsAndLimits() {
        #expect(["1.4", "1.4.2", "1.5", "1.6"].allSatisfy(ElectrumClient.isSupported))
        #expect(!["1.3", "1.7", "2.0", "1", "1.x", ""].contains(where: ElectrumClient.isSupported))
        // Not versions as the protocol writes them, though Int() reads each part as a number.
        #expect(!["+1.04", "1.04", "01.4", "1.+4", "1.4.", ".1.4", "1..4", "1.4.-2", " 1.4", "1.4\n", "١.٤"].contains(where: ElectrumClient.isSupported))
        #expect(ElectrumClient.explain(code: 10001, message: "history too large").contains("ElectrumX: MAX_SEND; Fulcrum: max_history"))
        #expect(ElectrumClient.explain(code: 1, message: "unknown method") == "the server answered with an error: unknown method (code 1)")
    }
}
