import Testing
import WalletWatchCore
@testable import WalletWatchEngine

@Suite("BIP-329 labels")
struct BIP329Tests {
    @Test("tx records become labels split on commas; other types are counted; bad lines are numbered")
    func parse() {
        let text = """
            {"type": "tx", "ref": "f91d0a8a78462bc59398f2c5d7a84fcff491c26ba54c4833478b202796c8aafd", "label": "Transaction", "origin": "wpkh([d0f0c0ba/84'/0'/0'])"}
            {"type": "addr", "ref": "bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c", "label": "Address"}

            {"type": "tx", "ref": "ark:ark:7", "label": "salary,  bonus ,"}
            not json
            {"type": "tx", "label": "no ref"}
            {"type": "tx", "ref": "ark:ark:7", "label": "Bonus, rent"}
            {"type": "tx", "ref": "abc", "label": null}
            {"type": "tx", "ref": "abc", "label": "\(String(repeating: "x", count: 65))"}
            """
        let result = BIP329.parse(text)
        #expect(result.labels.map(\.txid) == ["f91d0a8a78462bc59398f2c5d7a84fcff491c26ba54c4833478b202796c8aafd", "ark:ark:7", "abc"])
        // A label longer than a tag name is valid BIP-329: the BIP lets an importer cut it
        // (with a warning) rather than refuse the file.
        #expect(result.labels.map(\.tags) == [["Transaction"], ["salary", "bonus", "rent"], [String(repeating: "x", count: 64)]])
        #expect(result.truncated.map(\.line) == [9] && result.truncated.first?.label.count == 65)
        #expect(result.otherTypes == 1 && result.skippedTypes == ["addr": 1])
        #expect(result.txRecords == 5)
        #expect(result.unlabelled == 1)
        #expect(result.invalid.map(\.line) == [5, 6])
        #expect(result.invalid[0].reason.contains("malformed"))
        #expect(result.invalid[1].reason.contains("'ref'"))
    }

    @Test("a file written on Windows (CRLF) reads line by line")
    func windowsLineEnds() {
        let text = "{\"type\": \"tx\", \"ref\": \"a1\", \"label\": \"rent\"}\r\n{\"type\": \"tx\", \"ref\": \"b2\", \"label\": \"food\"}\r\nbroken\r\n"
        let result = BIP329.parse(text)
        #expect(result.labels.map(\.txid) == ["a1", "b2"])
        #expect(result.invalid.map(\.line) == [3])
    }

    @Test("export writes one record a line that parses back to the same labels")
    func roundTrip() {
        let labels: [(txid: String, tags: [String])] = [("ark:ark:1", ["a b", "ünï"]), ("beef", ["quote\"d"])]
        let text = BIP329.export(labels)
        #expect(text == #"{"type":"tx","ref":"ark:ark:1","label":"a b, ünï"}"# + "\n" + #"{"type":"tx","ref":"beef","label":"quote\"d"}"# + "\n")
        let parsed = BIP329.parse(text)
        #expect(parsed.invalid.isEmpty)
        #expect(parsed.labels.map(\.txid) == labels.map(\.txid))
        #expect(parsed.labels.map(\.tags) == labels.map(\.tags))
    }

    @Test("tag rules: colours, one emoji, no commas")
    func rules() throws {
        #expect(try TagRules.color("2e86de") == "#2E86DE")
        #expect(throws: UsageError.self) { try TagRules.color("#12345") }
        #expect(try TagRules.emoji("👨‍👩‍👧") == "👨‍👩‍👧")
        #expect(try TagRules.emoji("✈️") == "✈️")
        #expect(throws: UsageError.self) { try TagRules.emoji("1") }
        #expect(throws: UsageError.self) { try TagRules.emoji("🏠🏠") }
        #expect(throws: UsageError.self) { try TagRules.emoji("a") }
        #expect(throws: UsageError.self) { try TagRules.emoji("5\u{303}") }  // a digit with a tilde
        #expect(try TagRules.emoji("#\u{FE0F}\u{20E3}") == "#️⃣")
        #expect(try TagRules.emoji("🇩🇪") == "🇩🇪")
        #expect(throws: UsageError.self) { try TagRules.color("#１２３４５６") }  // full-width digits
        #expect(throws: UsageError.self) { try TagRules.name("a,b") }
        #expect(try TagRules.name("  padded  ") == "padded")
    }

    @Test("types BIP-329 does not define are skipped and counted by their name, as the BIP asks")
    func undefinedTypes() {
        let text = """
            {"type": "spscan", "ref": "spscan1q", "label": "scan key"}
            {"type": "future-type", "ref": "x", "label": "y"}
            {"type": "future-type", "ref": "z"}
            {"type": "tx", "ref": "abc"}
            """
        let result = BIP329.parse(text)
        #expect(result.skippedTypes == ["spscan": 1, "future-type": 2])
        #expect(result.labels.isEmpty && result.txRecords == 1 && result.unlabelled == 1 && result.invalid.isEmpty)
    }
}
