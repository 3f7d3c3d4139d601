import Foundation
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchEngine

/// How `source add` and `source remove` change a config written by hand: on its bytes, each
/// result read back by the real config loader.
@Suite("Configuration: the config's text, changed by source add and remove")
struct ConfigTextTests {
    /// A config as a person keeps one: comments everywhere, a block commented out, CRLF and tab
    /// spacing, a multi-line array with a comment inside it, a multi-line string holding a line
    /// that looks like a header, sub-tables of [rates], a quoted header key.
    static let handWritten = """
        # My walletwatch config. Keep private!
        database = "walletwatch.sqlite"   # beside this file

        # --- sources -------------------------------------------------------------
        # [[sources]]
        # name = "old"      (retired in 2025)

        [[sources]]   # the Ark wallet
        name = "ark"
        kind = "barkd"
        url = "http://127.0.0.1:3000"
        # token_file = "old.token"
        token_file = "barkd.token"
        ark_asset = "Ark wallet"\r
        \tinterval_seconds = 60

        # cold storage: two addresses, one per line
        [[ "sources" ]]
        name = "cold"
        kind = "esplora"
        url = "https://blockstream.info/api"
        addresses = [
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",   # paper wallet
            # the second came later
            "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l",
        ]

        [[sources]]
        name = "last"
        kind = "esplora"
        url = "https://mempool.space/api"
        asset = '''
        [[sources]]'''
        addresses = ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]
        # trailing note about the rates below

        [rates]
        provider = "static"   # [not a header]
        [rates.static]
        "BTC/USD" = "65000"
        # the end, no line feed after this
        """

    static func parse(_ bytes: [UInt8], file: String = "/tmp/walletwatch.toml") throws -> AppConfig {
        try ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), file: file)
    }

    @Test("the [[sources]] tables are found from their header to their last key, whatever the comments and strings around them")
    func blocks() throws {
        let text = ConfigText(Array(Self.handWritten.utf8))
        let blocks = text.sourceBlocks.map { String(decoding: text.bytes[$0], as: UTF8.self) }
        #expect(blocks.count == 3)
        #expect(try Self.parse(text.bytes).sources.map(\.name) == ["ark", "cold", "last"], "the loader agrees there are three")
        #expect(blocks[0].hasPrefix("[[sources]]   # the Ark wallet\n") && blocks[0].hasSuffix("\tinterval_seconds = 60\n"))
        #expect(blocks[1].hasPrefix("[[ \"sources\" ]]\n") && blocks[1].hasSuffix("    \"bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l\",\n]\n"))
        #expect(blocks[2].contains("asset = '''\n[[sources]]'''\n") && blocks[2].hasSuffix("addresses = [\"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\"]\n"),
                "the header inside the string is not a table; the trailing comment is not the block's")
    }

    @Test("a block appended keeps every old byte as the file's exact beginning, and the loader reads the new source last")
    func append() throws {
        let original = Array(Self.handWritten.utf8)
        let block = SourceBlock(comments: ["added by a test"], entries: [
            ConfigEntry("name", .string("new")), ConfigEntry("kind", .string("esplora")), ConfigEntry("url", .string("https://mempool.space/api")),
            ConfigEntry("addresses", .array([.string("bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l")])), ConfigEntry("gap_limit", .integer(5)),
        ])
        let updated = ConfigText(original).appending(block.text)
        #expect(Array(updated.prefix(original.count)) == original)
        #expect(String(decoding: updated.dropFirst(original.count), as: UTF8.self) == "\n\n" + block.text, "a line feed ends the last line, then one blank line")
        // gap_limit on a source of fixed addresses is refused: the loader read the block.
        #expect(throws: ConfigError.self) { try Self.parse(updated) }
        let fine = ConfigText(original).appending(block.removing("gap_limit").text)
        let config = try Self.parse(fine)
        #expect(config.sources.map(\.name) == ["ark", "cold", "last", "new"])
        #expect(config.rates.provider == .static, "[rates] before the block is still [rates]")
        // Removing it again gives back the file but for the line feed its last line lacked.
        let back = try #require(ConfigText(fine).removingSourceBlock(at: 3))
        #expect(back == original + Array("\n".utf8))
    }

    @Test("removing a block leaves every other byte, comments around it included, as it was")
    func remove() throws {
        let original = Array(Self.handWritten.utf8)
        let text = ConfigText(original)
        let withoutCold = String(decoding: try #require(text.removingSourceBlock(at: 1)), as: UTF8.self)
        // Exactly the block and the blank line before it are gone: written out by hand.
        let coldBlock = """

            [[ "sources" ]]
            name = "cold"
            kind = "esplora"
            url = "https://blockstream.info/api"
            addresses = [
                "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",   # paper wallet
                # the second came later
                "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l",
            ]

            """
        #expect(withoutCold == Self.handWritten.replacingOccurrences(of: "# cold storage: two addresses, one per line\n" + coldBlock.dropFirst(),
                                                                    with: "# cold storage: two addresses, one per line\n"),
                "\(withoutCold)")
        #expect(try Self.parse(Array(withoutCold.utf8)).sources.map(\.name) == ["ark", "last"])
        let withoutLast = try #require(text.removingSourceBlock(at: 2))
        #expect(String(decoding: withoutLast, as: UTF8.self).contains("# trailing note about the rates below\n\n[rates]"))
        #expect(try Self.parse(withoutLast).sources.map(\.name) == ["ark", "cold"])
        #expect(text.removingSourceBlock(at: 3) == nil)
    }

    @Test("a sub-table of a source belongs to its block")
    func subTable() throws {
        let text = ConfigText(Array("""
            [[sources]]
            name = "a"
            [sources.extra]
            x = 1

            [[sources]]
            name = "b"

            """.utf8))
        #expect(text.sourceBlocks.count == 2)
        #expect(String(decoding: text.bytes[text.sourceBlocks[0]], as: UTF8.self) == "[[sources]]\nname = \"a\"\n[sources.extra]\nx = 1\n")
    }

    @Test("strings are written so that TOML reads them back exactly: quotes, backslashes, control characters, any script",
          arguments: ["plain", "with \"quotes\"", "C:\\path\\to", "tab\there", "line\nbreak\r\n", "bell\u{07} del\u{7F}", "délà 日本 🐷",
                      "'''", "\"\"\"", "# not a comment", "[[sources]]"])
    func strings(_ value: String) throws {
        // token_env takes any text as it is (an environment variable's name): the round trip
        // through the loader shows the string exactly as TOML read it.
        let block = SourceBlock(comments: ["a comment"], entries: [
            ConfigEntry("name", .string("s")), ConfigEntry("kind", .string("barkd")), ConfigEntry("url", .string("http://127.0.0.1:3000")),
            ConfigEntry("token_env", .string(value)),
        ])
        #expect(block.text.split(separator: "\n").count == 6, "one line a key, whatever the value holds: \(block.text)")
        let config = try Self.parse(Array(block.text.utf8))
        #expect(config.sources[0].token == .environment(value))
        #expect(ConfigText(Array(block.text.utf8)).sourceBlocks.count == 1)
    }
}
