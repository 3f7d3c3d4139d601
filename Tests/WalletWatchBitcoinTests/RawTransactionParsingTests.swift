import Foundation
import Testing
import WalletWatchBitcoin

/// Raw transactions as an Electrum server sends them: the six of the Electrum protocol's own
/// "Status" example (Fixtures/electrum-protocol/protocol-basics.rst), and the 14 recorded
/// Esplora transactions written out with their witnesses, whose sizes and weights Esplora
/// reported.
@Suite struct RawTransactionParsingTests {
    /// The example's `get_history` answer: txids in the order of the raw answers that follow it.
    static let exampleTxids = [
        "a6c9c361bd0bc536d6a22648efbf8f9b200e425ef6c3a7a9669dc444c532a347",
        "9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c",
        "770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30",
        "80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311",
        "e02a1dadfa83b996b24175df807b271ea5d02937ef5b35c195fac1e1bdc3198f",
        "bb4c8ab438c13b89ca80d1d5bee25b0b6b7f55673f4d801998ba97db161d9e85",
    ]

    /// The raw transactions of the example's traffic, in the order the server sent them.
    static func exampleRawTransactions() throws -> [String] {
        let text = try String(contentsOf: Fixture.folder.appendingPathComponent("electrum-protocol/protocol-basics.rst"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("--> 0200000000") else { return nil }
            return String(trimmed.dropFirst(4).prefix { $0 != " " })
        }
    }

    @Test func theProtocolExamplesTransactionsParseToTheirTxids() throws {
        let raws = try Self.exampleRawTransactions()
        #expect(raws.count == 6)
        for (raw, txid) in zip(raws, Self.exampleTxids) {
            let transaction = try RawTransaction(hex: raw)
            #expect(transaction.txid == txid)
            #expect(transaction.hasWitness)
            // Written back, it is the same bytes: nothing was lost or invented.
            #expect(transaction.serialized.map(Hex.encode) == raw)
        }
    }

    @Test func theExamplesSpendsNameTheOutputsTheyUse() throws {
        let raws = try Self.exampleRawTransactions()
        // 9c42... spends output 0 of a6c9... and 770f... its output 1 (both mined in 2473 after 2472).
        let second = try RawTransaction(hex: raws[1])
        let third = try RawTransaction(hex: raws[2])
        #expect(second.inputs.map(\.previousTxid) == [Self.exampleTxids[0]])
        #expect(second.inputs.map(\.previousIndex) == [0])
        #expect(third.inputs.map(\.previousTxid) == [Self.exampleTxids[0]])
        #expect(third.inputs.map(\.previousIndex) == [1])
        // Every output pays a P2WPKH script (0x00 0x14 + 20 bytes).
        for raw in raws {
            for output in try RawTransaction(hex: raw).outputs {
                #expect(output.scriptPubKey.count == 22 && output.scriptPubKey.prefix(2) == [0x00, 0x14])
                #expect(output.value > 0)
            }
        }
    }

    @Test func recordedTransactionsWrittenWithWitnessesHaveEsplorasSizeAndWeight() throws {
        var checked = 0
        for url in EsploraTransactionTests.files {
            let json = try EsploraTransactionTests.transaction(url)
            let vin = try #require(json["vin"] as? [[String: Any]])
            let vout = try #require(json["vout"] as? [[String: Any]])
            let transaction = RawTransaction(
                version: Int32(try #require(json["version"] as? Int)),
                inputs: try vin.map { input in
                    RawTransaction.Input(
                        previousTxid: try #require(input["txid"] as? String), previousIndex: UInt32(try #require(input["vout"] as? Int)),
                        scriptSig: Hex.decode(try #require(input["scriptsig"] as? String)) ?? [],
                        sequence: UInt32(try #require(input["sequence"] as? Int)),
                        witness: ((input["witness"] as? [String]) ?? []).compactMap { Hex.decode($0) })
                },
                outputs: try vout.map { output in
                    RawTransaction.Output(value: Int64(try #require(output["value"] as? Int)),
                                          scriptPubKey: Hex.decode(try #require(output["scriptpubkey"] as? String)) ?? [])
                },
                lockTime: UInt32(try #require(json["locktime"] as? Int)))
            let bytes = try #require(transaction.serialized)
            let legacy = try #require(transaction.serializedWithoutWitness)
            #expect(bytes.count == json["size"] as? Int, "\(url.lastPathComponent)")
            #expect(legacy.count * 3 + bytes.count == json["weight"] as? Int, "\(url.lastPathComponent)")
            // And read back: the same transaction, the same txid.
            let parsed = try RawTransaction(parsing: bytes)
            #expect(parsed == transaction)
            #expect(parsed.txid == json["txid"] as? String)
            checked += 1
        }
        #expect(checked == 14)
    }

    @Test func malformedBytesAreRefusedSayingWhere() throws {
        let raw = try #require(Hex.decode(try Self.exampleRawTransactions()[0]))
        func refusal(_ bytes: [UInt8]) -> String? {
            do {
                _ = try RawTransaction(parsing: bytes)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal([])?.contains("the version ends early") == true)
        #expect(refusal(Array(raw.dropLast(2)))?.contains("lock time ends early") == true)
        #expect(refusal(raw + [0])?.contains("1 bytes follow its end") == true)
        // A count of 2^64-1 inputs must be refused before anything is allocated for them.
        #expect(refusal([2, 0, 0, 0, 0xff] + [UInt8](repeating: 0xff, count: 8) + [0, 0, 0, 0])?.contains("more than the 4 bytes left can hold") == true)
        // A marker whose flag is not 1.
        var badFlag = raw
        badFlag[5] = 2
        #expect(refusal(badFlag)?.contains("segwit flag is 2") == true)
        // No input at all (the legacy form of an empty transaction).
        #expect(refusal([2, 0, 0, 0, 0, 0, 0, 0, 0, 0])?.contains("segwit flag is 0") == true)
        #expect(refusal([2, 0, 0, 0, 1])?.contains("the input count is 1, more than the 0 bytes left") == true)
        #expect(refusal([2, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 41))?.contains("the output count ends early (byte 46 of 46)") == true)
    }
}
