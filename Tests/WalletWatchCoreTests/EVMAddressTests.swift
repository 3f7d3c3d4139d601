import Testing
import WalletWatchCore

/// Keccak-256 and EIP-55 against published vectors. The digests of "" and "abc" are those of
/// the Keccak team's submission (as listed in the Ethereum Yellow Paper's references and in
/// every Keccak-256 library's tests); the addresses are EIP-55's own examples
/// (https://eips.ethereum.org/EIPS/eip-55, "Test Cases"). Longer inputs are compared with
/// eth-hash, the Ethereum Foundation's Python Keccak, in WalletWatchEngineTests' EVM suite.
@Suite("EVM addresses: Keccak-256 and EIP-55 checksums")
struct EVMAddressTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined() }

    @Test("Keccak-256 of the empty string and of \"abc\"")
    func keccakVectors() {
        #expect(Self.hex(Keccak256.hash("")) == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        #expect(Self.hex(Keccak256.hash("abc")) == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    }

    @Test("the ERC-20 Transfer topic is the Keccak-256 of its signature")
    func transferTopic() {
        #expect(Self.hex(Keccak256.hash("Transfer(address,address,uint256)")) == "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
        #expect(Self.hex(Keccak256.hash("balanceOf(address)")).hasPrefix("70a08231"))
        #expect(Self.hex(Keccak256.hash("decimals()")).hasPrefix("313ce567"))
    }

    static let eip55 = [
        // All caps, all lower, then normal mixed case, as EIP-55 lists them.
        "0x52908400098527886E0F7030069857D2E4169EE7", "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77", "0x27b1fdb04752bbc536007a920d24acb045561c26",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]

    @Test("EIP-55's examples pass, and the mixed-case ones are what the checksum writes", arguments: eip55)
    func eip55Examples(text: String) throws {
        let address = try EVMAddress(checking: text)
        #expect(address.lowercased == text.lowercased())
        let digits = text.dropFirst(2)
        if digits.contains(where: \.isLowercase) && digits.contains(where: \.isUppercase) {
            #expect(address.checksummed == text)
        }
    }

    @Test("a mixed-case address with one letter's case flipped fails its checksum, naming the address")
    func badChecksum() {
        for text in Self.eip55[4...] {
            var characters = Array(text)
            let index = characters.indices.dropFirst(2).first { characters[$0].isLetter }!
            characters[index] = characters[index].isUppercase ? Character(characters[index].lowercased()) : Character(characters[index].uppercased())
            let typo = String(characters)
            #expect(throws: EVMAddressError.self) { try EVMAddress(checking: typo) }
            do { _ = try EVMAddress(checking: typo) } catch {
                #expect(error.description.contains(typo) && error.description.contains("EIP-55"))
            }
        }
    }

    @Test("what is not 0x and 40 hex digits is refused")
    func notAnAddress() {
        for text in ["", "0x", "52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886E0F7030069857D2E4169EE", "0x52908400098527886E0F7030069857D2E4169EG7"] {
            #expect(EVMAddress(text) == nil)
            #expect(throws: EVMAddressError.self) { try EVMAddress(checking: text) }
        }
    }

    @Test("an address in a log topic: twelve zero bytes, then the address")
    func topics() {
        let address = EVMAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")!
        #expect(address.word == "0x0000000000000000000000005aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
        #expect(EVMAddress(topic: address.word) == address)
        #expect(EVMAddress(topic: "0x0100000000000000000000005aaeb6053f3e94c9b9a09f33669435e7ef1beaed") == nil)
    }
}
