import Testing
import WalletWatchCore
@testable import WalletWatchSources

@Suite("Strict JSON reading")
struct JSONReaderTests {
    func read<T>(_ text: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try JSONReader.read(Array(text.utf8), body)
    }

    func failure(_ text: String, _ body: (inout JSONReader) throws -> Void) -> String? {
        do { try read(text, body); return nil } catch { return "\(error)" }
    }

    @Test("integers are exact; fractions, exponents, overflow and leading zeros are refused")
    func integers() throws {
        #expect(try read("9223372036854775807") { try $0.readInt64() } == Int64.max)
        #expect(try read("-9223372036854775808") { try $0.readInt64() } == Int64.min)
        #expect(try read(" 0 ") { try $0.readInt64() } == 0)
        #expect(failure("9223372036854775808") { _ = try $0.readInt64() }?.contains("too large") == true)
        #expect(failure("12.0") { _ = try $0.readInt64() }?.contains("fraction") == true)
        #expect(failure("1e3") { _ = try $0.readInt64() }?.contains("exponent") == true)
        #expect(failure("012") { _ = try $0.readInt64() }?.contains("leading zero") == true)
        #expect(failure("\"12\"") { _ = try $0.readInt64() }?.contains("expected an integer, found a string") == true)
        #expect(failure("-5") { _ = try $0.readNonNegativeInt64() }?.contains("must not be negative") == true)
    }

    @Test("decimals keep every digit as written")
    func decimals() throws {
        #expect(try read("65000.123456789012345") { try $0.readDecimal() } == Decimal(string: "65000.123456789012345"))
        #expect(try read("1.5e3") { try $0.readDecimal() } == 1500)
    }

    /// A valid JSON number too large for a decimal was called "malformed" (issue 26): the
    /// message must say what is wrong with it, and only JSON that breaks the grammar is malformed.
    @Test("a valid but huge number is out of range, not malformed; a number that breaks JSON's grammar is malformed")
    func hugeDecimals() {
        for huge in ["1e400", "-1E+999", "123456789e300"] {
            let message = failure(huge) { _ = try $0.readDecimal() }
            #expect(message?.contains("the number '\(huge)' is out of the range walletwatch reads") == true, "\(huge): \(String(describing: message))")
            #expect(message?.contains("malformed") == false)
        }
        for broken in ["01.5", "1.", "1.e3", "1e", "1e+", "-", "-.5"] {
            let message = failure(broken) { _ = try $0.readDecimal() }
            #expect(message?.contains("malformed number") == true, "\(broken): \(String(describing: message))")
        }
    }

    @Test("strings decode escapes, surrogate pairs and UTF-8; raw control characters are refused")
    func strings() throws {
        #expect(try read(#""a\"b\\c\/d\n\u00e9\ud83c\udfe0 ü""#) { try $0.readString() } == "a\"b\\c/d\né🏠 ü")
        #expect(failure("\"a\u{01}b\"") { _ = try $0.readString() }?.contains("control character") == true)
        #expect(failure(#""abc"#) { _ = try $0.readString() }?.contains("not closed") == true)
        #expect(failure(#""\q""#) { _ = try $0.readString() }?.contains("unknown escape") == true)
    }

    @Test("errors name the path of the field")
    func paths() {
        let message = failure(#"{"a": [1, {"b": "x"}]}"#) { reader in
            try reader.readObject { reader, _ in
                try reader.readArray { reader, index in
                    if index == 0 { _ = try reader.readInt64() } else {
                        try reader.readObject { reader, _ in _ = try reader.readInt64() }
                    }
                }
            }
        }
        #expect(message == "field a[1].b: expected an integer, found a string")
    }

    @Test("nesting deeper than the limit is refused without exhausting the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(deep) { try $0.skipValue() }?.contains("nesting deeper than 64") == true)
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(ok) { try $0.skipValue() } == nil)
    }

    /// A hostile source's text in an error must not break the line or reach the terminal as
    /// an escape sequence (`ESC ] 0 ; title BEL` sets a terminal's title).
    @Test("a source's text in an error is quoted, cut, and its invisible characters spelled out")
    func shownText() throws {
        #expect(JSONReader.shown("done") == "'done'")
        #expect(JSONReader.shown("\u{1B}]0;PWNED\u{07}") == "'\\u{1b}]0;PWNED\\u{7}'")
        #expect(JSONReader.shown("a\nb\u{2028}c\u{202E}d") == "'a\\u{a}b\\u{2028}c\\u{202e}d'")
        #expect(JSONReader.shown(String(repeating: "x", count: 41)) == "'" + String(repeating: "x", count: 40) + "…'")
        let status = try #require(failure(#"{"status": "\u001b]0;PWNED\u0007"}"#) { reader in
            _ = try BarkdDecoding.movement(&reader)
        })
        #expect(status == #"field status: '\u{1b}]0;PWNED\u{7}' is not a movement status (pending, successful, failed, canceled)"#)
        // A hostile key appears in the path of an error inside it.
        let key = try #require(failure(#"{"time": {"created_at": 5}, "\u001b[2J": {"x": [}}"#) { reader in
            try reader.readObject { reader, _ in try reader.skipValue() }
        })
        #expect(!key.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(key)")
        #expect(key.hasPrefix(#"field \u{1b}[2J.x"#), "\(key)")
    }

    @Test("anything after the document, or a broken document, is refused")
    func syntax() {
        #expect(failure("{} x") { try $0.skipValue() }?.contains("after the end") == true)
        #expect(failure(#"{"a" 1}"#) { try $0.skipValue() }?.contains("expected ':'") == true)
        #expect(failure(#"{"a":1,}"#) { try $0.skipValue() } != nil)
        #expect(failure("[1 2]") { try $0.skipValue() }?.contains("expected ',' or ']'") == true)
        #expect(failure("") { try $0.skipValue() } != nil)
    }
}

@Suite("Streaming array splitting")
struct JSONArrayStreamerTests {
    func split(_ text: String, chunk: Int) throws -> [String] {
        var streamer = JSONArrayStreamer(maximumElementBytes: 1 << 16)
        var elements: [String] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBytes { chunk in
                try streamer.feed(chunk) { element, _ in elements.append(String(decoding: element, as: UTF8.self)) }
            }
            start = end
        }
        try streamer.finish()
        return elements
    }

    @Test("elements are found whatever the chunk boundaries, with brackets and commas inside strings")
    func boundaries() throws {
        let text = #" [ {"a":"x,]}\"[","b":[1,{"c":2}]} , 42, "s\\", null , [] ] "#
        let expected = [#"{"a":"x,]}\"[","b":[1,{"c":2}]}"#, "42", #""s\\""#, "null", "[]"]
        for chunk in [1, 2, 3, 7, 1000] {
            #expect(try split(text, chunk: chunk).map { $0.trimmingSpaces } == expected, "chunk size \(chunk)")
        }
        #expect(try split("[]", chunk: 1).isEmpty)
    }

    @Test("a truncated array, a huge element, deep nesting or trailing data are refused")
    func refusals() {
        #expect(throws: JSONReadError.self) { try split(#"[{"a":1},{"b":"#, chunk: 5) }
        #expect(throws: JSONReadError.self) { try split("[1,2] 3", chunk: 5) }
        #expect(throws: JSONReadError.self) { try split("{}", chunk: 5) }
        #expect(throws: JSONReadError.self) { try split("[1,,2]", chunk: 5) }
        let huge = "[\"" + String(repeating: "x", count: 70_000) + "\"]"
        #expect { try split(huge, chunk: 4096) } throws: { "\($0)".contains("larger than") }
        let deep = "[" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]"
        #expect { try split(deep, chunk: 4096) } throws: { "\($0)".contains("nesting deeper") }
    }
}

import Foundation

/// The readers skip over the plain bytes of a string eight at a time (``JSONStringScan``):
/// every position of a quote, an escape or a control character within and across those
/// eight-byte words, and every chunk boundary, must read as Foundation's own JSON parser
/// reads the same document.
@Suite("Strings read a word at a time")
struct JSONStringScanTests {
    /// Strings of 0 to 40 characters with `special` at each position.
    static func strings(with special: String) -> [String] {
        (0...40).flatMap { length in
            (0...length).map { position in
                String(repeating: "a", count: position) + special + String(repeating: "b", count: length - position)
            }
        }
    }

    /// What Foundation's JSONSerialization makes of a one-string array, or nil when it refuses it.
    func foundation(_ document: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String])?.first
    }

    @Test("escapes, quotes and multi-byte characters at every position read as Foundation reads them")
    func escapesEverywhere() throws {
        for special in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, #"\ud83c\udfe0"#, "é", "🏠", "~\u{7F}", ""] {
            for inside in Self.strings(with: special) {
                let document = "[\"\(inside)\"]"
                let expected = try #require(foundation(document), "\(document)")
                let read = try JSONReader.read(Array(document.utf8)) { reader in try reader.readStrings() }
                #expect(read == [expected], "\(document)")
                #expect(throws: Never.self) { try JSONReader.read(Array(document.utf8)) { reader in try reader.skipStrings() } }
            }
        }
    }

    @Test("a raw control character or an unclosed string is refused at every position, as Foundation refuses it")
    func refusalsEverywhere() throws {
        for control in ["\u{01}", "\n", "\u{1F}"] {
            for inside in Self.strings(with: control) {
                let document = "[\"\(inside)\"]"
                #expect(foundation(document) == nil, "Foundation accepts \(document.debugDescription)")
                #expect { try JSONReader.read(Array(document.utf8)) { reader in try reader.readStrings() } } throws: {
                    "\($0)".contains("control character")
                }
                #expect { try JSONReader.read(Array(document.utf8)) { reader in try reader.skipStrings() } } throws: {
                    "\($0)".contains("control character")
                }
            }
        }
        for inside in Self.strings(with: #"\""#) {
            #expect { try JSONReader.read(Array("\"\(inside)".utf8)) { reader in try reader.readString() } } throws: {
                "\($0)".contains("not closed")
            }
        }
    }

    @Test("the streamer finds the same elements whatever the chunk size, with escapes anywhere in long strings")
    func streamerEverywhere() throws {
        let strings = Self.strings(with: #"\""#).prefix(200) + Self.strings(with: #"\\"#).suffix(200) + Self.strings(with: "],{")
        let document = "[" + strings.map { #"{"k":"\#($0)","n":[1,"\#($0)"]}"# }.joined(separator: ",") + "]"
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [[String: Any]]).count
        for chunk in [1, 3, 7, 8, 9, 31, 64, 4096, 1 << 20] {
            var streamer = JSONArrayStreamer()
            var keys: [String] = []
            let bytes = Array(document.utf8)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                try bytes[start..<end].withUnsafeBytes { part in
                    try streamer.feed(part) { element, _ in
                        var reader = JSONReader(element)
                        try reader.readObject { reader, key in
                            if key.is("k") { keys.append(try reader.readString()) } else { try reader.skipValue() }
                        }
                    }
                }
                start = end
            }
            try streamer.finish()
            #expect(keys.count == expected, "chunk \(chunk)")
            #expect(keys == strings.map { try! JSONReader.read(Array("\"\($0)\"".utf8)) { try $0.readString() } }, "chunk \(chunk)")
        }
    }

    @Test("timestamps, skipped lists and usual strings are checked as their plain readers check them")
    func sameChecks() throws {
        func failure(_ text: String, _ body: (inout JSONReader) throws -> Void) -> String? {
            do { try JSONReader.read(Array(text.utf8), body); return nil } catch { return "\(error)" }
        }
        #expect(try JSONReader.read(Array(#""2026-11-21T12:00:00.250Z""#.utf8)) { try $0.readInstant() }
            == Instant(iso8601: "2026-11-21T12:00:00.250Z"))
        #expect(try JSONReader.read(Array(#""2026-11-21T12:00:00\u002e250Z""#.utf8)) { try $0.readInstant() }
            == Instant(iso8601: "2026-11-21T12:00:00.250Z"))
        #expect(failure(#""2026-13-01T00:00:00Z""#) { _ = try $0.readInstant() } == "'2026-13-01T00:00:00Z' is not an ISO 8601 timestamp")
        #expect(failure("5") { _ = try $0.readInstant() } == "expected a string, found a number")
        for list in [#"["a", 5]"#, #"{"a": 1}"#, #"["a""#, #"["\q"]"#] {
            #expect(failure(list) { try $0.skipStrings() } == failure(list) { _ = try $0.readStrings() }, "\(list)")
            #expect(failure(list) { try $0.skipStrings() } != nil, "\(list)")
        }
        let known = ["bark.round", "bark.arkoor"]
        #expect(try JSONReader.read(Array(#""bark.round""#.utf8)) { try $0.readString(usually: known) } == "bark.round")
        #expect(try JSONReader.read(Array(#""bark.roun""#.utf8)) { try $0.readString(usually: known) } == "bark.roun")
        #expect(try JSONReader.read(Array(#""bark.r\u006fund""#.utf8)) { try $0.readString(usually: known) } == "bark.round")
        #expect(try JSONReader.read(Array(#""""#.utf8)) { try $0.readString(usually: known) } == "")
        #expect(failure("null") { _ = try $0.readString(usually: known) } == "expected a string, found null")
    }
}
