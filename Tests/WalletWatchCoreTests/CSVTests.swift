import Foundation
import Testing
import TestSupport
@testable import WalletWatchCore

@Suite("CSV (RFC 4180) and the rates file")
struct CSVTests {
    @Test("fields are quoted only when needed; quotes double; records end with CRLF")
    func writing() {
        #expect(CSV.record(["plain", "a,b", "say \"hi\"", "two\nlines", ""]) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n")
    }

    @Test("cells a spreadsheet would run as a formula get a leading apostrophe; plain numbers stay numbers")
    func formulaCells() throws {
        for (hostile, written) in [("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"), ("+1+1", "'+1+1"), ("@SUM(A1)", "'@SUM(A1)"),
                                   ("-2+3", "'-2+3"), ("-", "'-"), ("\tHYPERLINK(1)", "'\tHYPERLINK(1)"), ("-1e5", "'-1e5"), ("+", "'+")] {
            #expect(CSV.neutralized(hostile) == written, "\(hostile)")
        }
        #expect(CSV.field("\r=1+1") == "\"'\r=1+1\"", "a carriage return: neutralized, then quoted")
        for number in ["-0.015", "-1500", "+2", "0.01500000", "250.50", "-0.00500000"] {
            #expect(CSV.neutralized(number) == number, "\(number)")
        }
        for harmless in ["", "bought \"cheap\"", "2026-10-15T09:30:00.000Z", "a=b", "1+1", "ark:ark:7"] {
            #expect(CSV.neutralized(harmless) == harmless, "\(harmless)")
        }
        #expect(CSV.record(["=1+2", "-5", "@x,y"]) == "'=1+2,-5,\"'@x,y\"\r\n")
        let parsed = try CSV.parse(CSV.document(header: ["a"], rows: [["=HYPERLINK(\"http://x\")"]]))
        #expect(parsed.last?.fields == ["'=HYPERLINK(\"http://x\")"])
    }

    @Test("what is written parses back to the same fields, with the line each record starts on")
    func roundTrip() throws {
        let rows = [["1", "a,b", "say \"hi\""], ["2", "two\r\nlines", "é 🎉"], ["3", "", "x"]]
        let text = CSV.document(header: ["n", "text", "more"], rows: rows)
        let records = try CSV.parse(text)
        #expect(records.map(\.fields) == [["n", "text", "more"]] + rows)
        #expect(records.map(\.line) == [1, 2, 3, 5])
    }

    @Test("a stray quote or an unclosed quoted field names its line")
    func syntaxErrors() {
        #expect(throws: CSV.SyntaxError(line: 2, reason: "a double quote inside a field that is not quoted (write it as \"\" inside a quoted field)")) {
            try CSV.parse("a,b\nx\"y,z\n")
        }
        #expect(throws: CSV.SyntaxError.self) { try CSV.parse("a,b\n\"open,z\n") }
    }

    @Test("a rates file: header in any order, daily dates at 00:00 UTC, every bad line named")
    func ratesFile() {
        let now = Instant.at("2026-11-21T12:00:00Z")
        let good = RateImportParser.parse("rate,date,base,quote\r\n61250.50,2026-10-01,btc,USD\r\n\"0.9\",2026-10-01,USD,EUR\r\n", now: now, registry: CurrencyRegistry())
        #expect(good.problems.isEmpty)
        #expect(good.rates == [
            ImportedRate(line: 2, pair: CurrencyPair("BTC/USD")!, instant: .at("2026-10-01T00:00:00Z"), rate: Decimal(string: "61250.50")!),
            ImportedRate(line: 3, pair: CurrencyPair("USD/EUR")!, instant: .at("2026-10-01T00:00:00Z"), rate: Decimal(string: "0.9")!),
        ])
        let bad = RateImportParser.parse("""
            date,base,quote,rate
            2026-10-01,BTC,USD,61000
            2026-13-01,BTC,USD,61000
            2026-10-02,BTC,XXX,61000
            2026-10-03,BTC,USD,-5
            2026-10-04,BTC,USD,12abc
            2026-12-01,BTC,USD,61000
            2026-10-01,BTC,USD,62000
            2026-10-05,BTC,USD
            """, now: now, registry: CurrencyRegistry())
        #expect(bad.problems.map(\.line) == [3, 4, 5, 6, 7, 8, 9])
        #expect(bad.problems.last?.reason == "3 field(s) where the header has 4")
        #expect(bad.problems[5].reason.contains("from line 2"))
        #expect(RateImportParser.parse("2026-10-01,BTC,USD,61000\n", now: now, registry: CurrencyRegistry()).problems.first?.reason.contains("header") == true)
        // The same date in the other direction is a second price for the same thing.
        let inverse = RateImportParser.parse("date,base,quote,rate\n2026-10-01,BTC,USD,61000\n2026-10-01,USD,BTC,0.0000165\n", now: now, registry: CurrencyRegistry())
        #expect(inverse.problems == [RateImportProblem(line: 3, reason: "prices USD/BTC on 2026-10-01, the inverse of line 2's BTC/USD; give a date one price")])
    }
}
