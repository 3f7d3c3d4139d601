import Testing
import WalletWatchBitcoin

/// BIP173 and BIP350 vectors, read from sipa's reference `tests.py` (Fixtures/bech32-ref), which
/// holds both BIPs' lists in machine-readable form.
@Suite struct Bech32Tests {
    static let source = try! Fixture.text("bech32-ref/tests.py.txt")

    static func list(_ name: String) -> [NotedValue] {
        PythonLiteral.list(named: name, in: source)
    }

    @Test func listsAreRead() {
        // The counts of the file as copied: a parser that loses elements fails here first.
        #expect(Self.list("VALID_BECH32").count == 7)
        #expect(Self.list("VALID_BECH32M").count == 7)
        #expect(Self.list("INVALID_BECH32").count == 12)
        #expect(Self.list("INVALID_BECH32M").count == 14)
        #expect(Self.list("VALID_ADDRESS").count == 8)
        #expect(Self.list("INVALID_ADDRESS").count == 15)
        #expect(Self.list("INVALID_ADDRESS_ENC").count == 5)
    }

    @Test(arguments: [("VALID_BECH32", Bech32Encoding.bech32), ("VALID_BECH32M", .bech32m)])
    func validStrings(list: String, encoding: Bech32Encoding) throws {
        for entry in Self.list(list) {
            let text = try #require(entry.value.string)
            let decoded = try Bech32.decode(text)
            #expect(decoded.encoding == encoding, "\(text)")
            #expect(Bech32.encode(hrp: decoded.hrp, data: decoded.data, encoding: encoding) == text.lowercased())
            // tests.py: flipping the lowest bit of the first data character breaks the checksum.
            var scalars = Array(text.unicodeScalars)
            let separator = try #require(scalars.lastIndex(of: "1"))
            scalars[separator + 1] = Unicode.Scalar(scalars[separator + 1].value ^ 1)!
            let broken = String(String.UnicodeScalarView(scalars))
            #expect(throws: Bech32Error.self, "\(broken)") { try Bech32.decode(broken) }
        }
    }

    /// The comment above each invalid string in tests.py names the reason; each maps to one error.
    static func expectedReason(_ note: String, for text: String) -> (Bech32Error.Reason) -> Bool {
        switch note {
        case "HRP character out of range":
            return { $0 == .characterOutOfRange }
        case "overall max length exceeded":
            return { if case .tooLong = $0 { true } else { false } }
        case "No separator character":
            return { $0 == .noSeparator }
        case "Empty HRP", "empty HRP":
            return { $0 == .emptyHumanReadablePart }
        case "Invalid data character":
            return { if case .invalidDataCharacter = $0 { true } else { false } }
        case "Too short checksum":
            return { $0 == .checksumTooShort }
        case "Invalid character in checksum":
            // `de1lg7wt\xFF` ends in a character outside ASCII; the others in one outside the alphabet.
            return { if case .invalidDataCharacter = $0 { true } else { $0 == .characterOutOfRange } }
        case "checksum calculated with uppercase form of HRP", "Checksum calculated with uppercase form of HRP":
            return { $0 == .checksumMismatch }
        default:
            Issue.record("no reason known for the note '\(note)' of \(text)")
            return { _ in false }
        }
    }

    @Test(arguments: ["INVALID_BECH32", "INVALID_BECH32M"])
    func invalidStrings(list: String) throws {
        for entry in Self.list(list) {
            let text = try #require(entry.value.string)
            let matches = Self.expectedReason(entry.note, for: text)
            do {
                let decoded = try Bech32.decode(text)
                Issue.record("\(text.debugDescription) decoded as \(decoded.encoding)")
            } catch {
                #expect(matches(error.reason), "\(text.debugDescription): \(entry.note) gave \(error.reason)")
            }
        }
    }

    @Test func validAddresses() throws {
        for entry in Self.list("VALID_ADDRESS") {
            let pair = try #require(entry.value.list)
            let text = try #require(pair[0].string)
            let script = try #require(pair[1].string)
            // As tests.py does: try the bc prefix, then tb.
            let address = try (try? Address(text, network: .bitcoin)) ?? Address(text, network: .testnet)
            #expect(hex(address.scriptPubKey) == script, "\(text)")
            #expect(address.description == text.lowercased())
            let encoded = try #require(Address(scriptPubKey: bytes(script), network: address.network))
            #expect(encoded.description == text.lowercased())
        }
    }

    static func expectedReason(forAddressNote note: String) -> (AddressError.Reason) -> Bool {
        switch note {
        case "Invalid HRP":
            return { if case .notAnAddress = $0 { true } else { false } }
        case "Invalid checksum algorithm (bech32 instead of bech32m)":
            return { if case .wrongChecksumForVersion(let version, .bech32) = $0 { version > 0 } else { false } }
        case "Invalid checksum algorithm (bech32m instead of bech32)":
            return { $0 == .wrongChecksumForVersion(version: 0, used: .bech32m) }
        case "Invalid character in checksum":
            return { if case .bech32(let error) = $0, case .invalidDataCharacter = error.reason { true } else { false } }
        case "Invalid witness version":
            return { $0 == .invalidWitnessVersion(17) }
        case "Invalid program length (1 byte)":
            return { if case .invalidProgramLength(_, 1) = $0 { true } else { false } }
        case "Invalid program length (41 bytes)":
            return { if case .invalidProgramLength(_, 41) = $0 { true } else { false } }
        case "Invalid program length for witness version 0 (per BIP141)":
            return { if case .invalidProgramLength(0, let length) = $0 { length != 20 && length != 32 } else { false } }
        case "Mixed case":
            return { if case .bech32(let error) = $0 { error.reason == .mixedCase } else { false } }
        case "More than 4 padding bits", "Non-zero padding in 8-to-5 conversion":
            return { if case .invalidPadding = $0 { true } else { false } }
        case "Empty data section":
            return { $0 == .noWitnessVersion }
        default:
            Issue.record("no reason known for the note '\(note)'")
            return { _ in false }
        }
    }

    @Test func invalidAddresses() throws {
        for entry in Self.list("INVALID_ADDRESS") {
            let text = try #require(entry.value.string)
            let matches = Self.expectedReason(forAddressNote: entry.note)
            for network in [Network.bitcoin, .testnet] {
                do {
                    let address = try Address(text, network: network)
                    Issue.record("\(text) decoded on \(network) to \(hex(address.scriptPubKey))")
                } catch {
                    #expect(matches(error.reason), "\(text) on \(network): \(entry.note) gave \(error)")
                }
            }
        }
    }

    @Test func invalidEncodings() throws {
        for entry in Self.list("INVALID_ADDRESS_ENC") {
            let tuple = try #require(entry.value.list)
            let hrp = try #require(tuple[0].string)
            let version = try #require(tuple[1].integer)
            let length = try #require(tuple[2].integer)
            #expect(Address.encodeSegwit(hrp: hrp, version: UInt8(version), program: [UInt8](repeating: 0, count: length)) == nil,
                    "\(hrp) \(version) \(length)")
        }
    }

    /// A single mistyped character is located: the checksum's distance of at least 5 leaves one fix.
    /// Every place after the separator, the witness version's and the checksum's included.
    @Test(arguments: Array(4...42))
    func locatesOneMistypedCharacter(position: Int) throws {
        let valid = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
        var characters = Array(valid)
        characters[position - 1] = characters[position - 1] == "q" ? "p" : "q"
        let mistyped = String(characters)
        let error = try #require(throws: AddressError.self) { try Address(mistyped, network: .bitcoin) }
        guard case .bech32(let inner) = error.reason else { Issue.record("\(error)"); return }
        #expect(inner.reason == .checksumMismatch)
        #expect(inner.position == position)
        #expect(error.description.contains("checksum does not match (first bad character at position \(position))"))
    }

    @Test func reportsPositionOfInvalidCharacter() throws {
        let error = try #require(throws: AddressError.self) { try Address("bc1qw508d6qejxtdg4y5r3zarvaryoc5xw7kv8f3t4", network: .bitcoin) }
        guard case .bech32(let inner) = error.reason else { Issue.record("\(error)"); return }
        #expect(inner.reason == .invalidDataCharacter("o"))
        #expect(inner.position == 30)
        #expect(error.description.contains("position 30"))
    }
}
