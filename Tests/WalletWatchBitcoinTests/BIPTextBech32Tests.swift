import Testing
import WalletWatchBitcoin

/// BIP173 and BIP350 "Test vectors" as the BIP texts list them (Fixtures/bip-0173.mediawiki,
/// bip-0350.mediawiki): every valid and invalid string and address. The same lists are read from
/// sipa's reference tests in ``Bech32Tests``; these read the BIPs themselves.
@Suite struct BIPTextBech32Tests {
    /// One `* ...` item of a list: the string (with the bytes the text writes as `0xNN +` or
    /// `+ 0xNN` around `<tt>...</tt>`) and what follows the colon (a reason or a `<tt>` script).
    struct Item {
        var text: String
        var after: String
    }

    /// The items of the list that follows the line starting with `heading`, up to a blank line.
    static func list(_ file: String, after heading: String) throws -> [Item] {
        let lines = try Fixture.text(file).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        var items: [Item] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty && !items.isEmpty { break }
            guard line.hasPrefix("* "), let open = line.range(of: "<tt>"), let close = line.range(of: "</tt>") else { continue }
            var text = String(line[open.upperBound..<close.lowerBound])
            let before = line[line.index(line.startIndex, offsetBy: 2)..<open.lowerBound]
            if before.hasPrefix("0x"), let byte = UInt32(before.dropFirst(2).prefix(2), radix: 16) {
                text = String(Unicode.Scalar(byte)!) + text
            }
            var rest = line[close.upperBound...]
            if rest.hasPrefix(" + 0x"), let byte = UInt32(rest.dropFirst(5).prefix(2), radix: 16) {
                text += String(Unicode.Scalar(byte)!)
                rest = rest.dropFirst(7)
            }
            let after = rest.drop { $0 == ":" || $0 == " " }
            items.append(Item(text: text, after: String(after)))
        }
        return items
    }

    static func script(_ item: Item) -> String {
        item.after.replacingOccurrences(of: "<tt>", with: "").replacingOccurrences(of: "</tt>", with: "")
    }

    static func network(_ address: String) -> Network {
        address.lowercased().hasPrefix("tb") ? .testnet : .bitcoin
    }

    @Test(arguments: [("bip-0173.mediawiki", "The following strings are valid Bech32:", Bech32Encoding.bech32, 7),
                      ("bip-0350.mediawiki", "The following strings are valid Bech32m:", .bech32m, 7)])
    func validStrings(file: String, heading: String, encoding: Bech32Encoding, count: Int) throws {
        let items = try Self.list(file, after: heading)
        #expect(items.count == count)
        for item in items {
            #expect(try Bech32.decode(item.text).encoding == encoding, "\(item.text)")
        }
    }

    @Test(arguments: [("bip-0173.mediawiki", "The following string are not valid Bech32", 12),
                      ("bip-0350.mediawiki", "The following string are not valid Bech32m", 14)])
    func invalidStrings(file: String, heading: String, count: Int) throws {
        let items = try Self.list(file, after: heading)
        #expect(items.count == count)
        for item in items {
            let decoded = try? Bech32.decode(item.text)
            // A string of the other encoding is valid Bech32(m) but not of this one.
            let wanted: Bech32Encoding = file == "bip-0173.mediawiki" ? .bech32 : .bech32m
            #expect(decoded?.encoding != wanted, "\(item.text.debugDescription): \(item.after)")
        }
    }

    @Test func bip350ValidAddresses() throws {
        let items = try Self.list("bip-0350.mediawiki", after: "The following list gives valid segwit addresses")
        #expect(items.count == 8)
        for item in items {
            let address = try Address(item.text, network: Self.network(item.text))
            #expect(Hex.encode(address.scriptPubKey) == Self.script(item), "\(item.text)")
            #expect(address.description == item.text.lowercased())
        }
    }

    /// BIP173's v0 addresses are valid; its v1-v16 ones were written with the Bech32 checksum,
    /// which BIP350 replaced with Bech32m for them: they are refused now.
    @Test func bip173ValidAddresses() throws {
        let items = try Self.list("bip-0173.mediawiki", after: "The following list gives valid segwit addresses")
        #expect(items.count == 6)
        for item in items {
            let script = Self.script(item)
            if script.hasPrefix("00") {
                #expect(Hex.encode(try Address(item.text, network: Self.network(item.text)).scriptPubKey) == script)
            } else {
                #expect(throws: AddressError.self, "\(item.text)") { try Address(item.text, network: Self.network(item.text)) }
            }
        }
    }

    @Test(arguments: [("bip-0173.mediawiki", 10), ("bip-0350.mediawiki", 15)])
    func invalidAddresses(file: String, count: Int) throws {
        let items = try Self.list(file, after: "The following list gives invalid segwit addresses")
        #expect(items.count == count)
        for item in items {
            for network in [Network.bitcoin, .testnet] {
                #expect(throws: AddressError.self, "\(item.text): \(item.after)") { try Address(item.text, network: network) }
            }
        }
    }
}
