import Testing
@testable import WalletWatchCore

@Suite("JSON documents")
struct JSONValueTests {
    @Test("keys keep their order, nulls are explicit, integers are exact")
    func shape() {
        let value: JSONValue = .object(["b": 1, "a": .null, "amount": .int(Int64.max), "rate": .number("0.125"), "ok": true])
        #expect(value.compact == #"{"b":1,"a":null,"amount":9223372036854775807,"rate":0.125,"ok":true}"#)
    }

    @Test("strings are escaped as RFC 8259 requires")
    func escaping() {
        let value: JSONValue = .string("quote \" slash \\ newline \n tab \t bell \u{07} emoji 🏠")
        #expect(value.compact == #""quote \" slash \\ newline \n tab \t bell \u0007 emoji 🏠""#)
    }

    @Test("pretty printing indents with two spaces")
    func pretty() {
        let value: JSONValue = .object(["a": [1, 2], "b": .object([]), "c": []])
        #expect(value.pretty == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
    }
}
