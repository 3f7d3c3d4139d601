import Testing
import WalletWatchCore

@Suite("Transaction ids and outpoints")
struct BitcoinIdentifierTests {
    /// The txid of Bitcoin's genesis block coinbase, as Bitcoin Core prints it.
    static let genesis = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"

    static let txidCases: [(String, String?)] = [
        (genesis, genesis),
        (genesis.uppercased(), genesis),
        (String(genesis.dropLast()), nil),
        (genesis + "0", nil),
        (String(genesis.dropLast()) + "g", nil),
        ("", nil),
        ("<script>alert(1)</script>", nil),
        ("\u{1B}]0;PWNED\u{07}", nil),
        // 64 characters, but not ASCII hexadecimal digits: Arabic-Indic digits and full-width letters.
        (String(repeating: "\u{0661}", count: 64), nil),
        (String(repeating: "\u{FF41}", count: 64), nil),
        (" " + String(genesis.dropFirst()), nil),
    ]

    @Test("a txid is 64 hexadecimal digits, kept in lower case", arguments: txidCases)
    func txids(text: String, expected: String?) {
        #expect(BitcoinIdentifier.txid(text) == expected)
    }

    static let outpointCases: [(String, String?)] = [
        (genesis + ":0", genesis + ":0"),
        (genesis.uppercased() + ":7", genesis + ":7"),
        (genesis + ":4294967295", genesis + ":4294967295"),
        (genesis + ":4294967296", nil),
        (genesis + ":01", nil),
        (genesis + ":", nil),
        (genesis + ":-1", nil),
        (genesis + ":+1", nil),
        (genesis + ":1:2", nil),
        (genesis, nil),
        ("ab:0", nil),
        ("<script>alert(1)</script>:0", nil),
        (genesis + ":99999999999", nil),
    ]

    @Test("an outpoint is txid:vout with a 32-bit index in canonical decimal", arguments: outpointCases)
    func outpoints(text: String, expected: String?) {
        #expect(BitcoinIdentifier.outpoint(text) == expected)
    }
}
