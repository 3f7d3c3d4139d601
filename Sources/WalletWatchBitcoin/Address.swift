/// A Bitcoin address of one network and the output script (scriptPubKey) it stands for.
public struct Address: Sendable, Hashable, CustomStringConvertible {
    /// The network whose prefixes the address uses.
    public let network: Network
    /// The output script the address pays to.
    public let scriptPubKey: [UInt8]
    /// The address in its canonical form: Base58 as written, segwit in lowercase.
    public let description: String

    /// Longer text is never an address; refusing it early keeps Base58's quadratic decoding cheap.
    static let maximumLength = 120

    /// Decodes `text` as an address of `network`: P2PKH, P2SH, or segwit of any version (P2WPKH,
    /// P2WSH, P2TR, P2A and future versions).
    public init(_ text: String, network: Network) throws(AddressError) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength else {
            throw AddressError(text, .notAnAddress(text.isEmpty ? "it is empty" : "it is too long"))
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("bc1") || lowered.hasPrefix("tb1") || lowered.hasPrefix("bcrt1") {
            self = try Self.decodeSegwit(text, network: network)
        } else {
            self = try Self.decodeBase58(text, network: network)
        }
    }

    /// The address of `scriptPubKey` on `network`, or nil for scripts that have none (bare
    /// multisig, P2PK, OP_RETURN, witness version 0 programs of other than 20 or 32 bytes).
    public init?(scriptPubKey: [UInt8], network: Network) {
        guard let template = Script.Template(scriptPubKey) else { return nil }
        switch template {
        case .p2pkh(let hash):
            description = Base58.encodeCheck([network.p2pkhVersion] + hash)
        case .p2sh(let hash):
            description = Base58.encodeCheck([network.p2shVersion] + hash)
        case .witness(let version, let program):
            guard let text = Self.encodeSegwit(hrp: network.bech32HRP, version: version, program: program) else { return nil }
            description = text
        }
        self.network = network
        self.scriptPubKey = scriptPubKey
    }

    /// The segwit address of a witness `version` and `program` (BIP173, BIP350), or nil when they
    /// break a rule: version above 16, program outside 2-40 bytes, version 0 not 20 or 32 bytes.
    public static func encodeSegwit(hrp: String, version: UInt8, program: [UInt8]) -> String? {
        guard version <= 16, (2...40).contains(program.count), version != 0 || program.count == 20 || program.count == 32,
              hrp == hrp.lowercased()
        else { return nil }
        guard case .success(let data) = Bech32.convertBits(program, from: 8, to: 5, pad: true) else { return nil }
        let text = Bech32.encode(hrp: hrp, data: [version] + data, encoding: version == 0 ? .bech32 : .bech32m)
        return text.utf8.count <= Bech32.maximumLength ? text : nil
    }

    private init(network: Network, scriptPubKey: [UInt8], description: String) {
        self.network = network
        self.scriptPubKey = scriptPubKey
        self.description = description
    }

    private static func decodeSegwit(_ text: String, network: Network) throws(AddressError) -> Address {
        let decoded: Bech32String
        do {
            decoded = try Bech32.decode(text)
        } catch {
            throw AddressError(text, .bech32(error))
        }
        guard let version = decoded.data.first else {
            throw AddressError(text, .noWitnessVersion)
        }
        guard version <= 16 else {
            throw AddressError(text, .invalidWitnessVersion(Int(version)))
        }
        let expected: Bech32Encoding = version == 0 ? .bech32 : .bech32m
        guard decoded.encoding == expected else {
            throw AddressError(text, .wrongChecksumForVersion(version: version, used: decoded.encoding))
        }
        let program: [UInt8]
        switch Bech32.convertBits(Array(decoded.data.dropFirst()), from: 5, to: 8, pad: false) {
        case .success(let bytes):
            program = bytes
        case .failure(.tooManyPaddingBits(let bits)):
            throw AddressError(text, .invalidPadding("\(bits) bits of padding; at most 4 are allowed"))
        case .failure(.nonZeroPadding):
            throw AddressError(text, .invalidPadding("its padding bits are not zero"))
        }
        guard (2...40).contains(program.count), version != 0 || program.count == 20 || program.count == 32 else {
            throw AddressError(text, .invalidProgramLength(version: version, length: program.count))
        }
        guard decoded.hrp == network.bech32HRP else {
            throw AddressError(text, .wrongNetwork(of: Network.names(usingHRP: decoded.hrp) ?? decoded.hrp, expected: network))
        }
        return Address(network: network, scriptPubKey: Script.witnessProgram(version: version, program: program),
                       description: text.lowercased())
    }

    private static func decodeBase58(_ text: String, network: Network) throws(AddressError) -> Address {
        let payload: [UInt8]
        switch Base58.decodeCheck(text) {
        case .success(let bytes):
            payload = bytes
        case .failure(let error):
            // A bech32 string of some other chain or purpose is not Base58 at all; say what it is.
            if let decoded = try? Bech32.decode(text) {
                throw AddressError(text, .notAnAddress("its prefix '\(decoded.hrp)' is not bc, tb or bcrt"))
            }
            if PrivateKeyDetector.looksLikeExtendedPrivateKey(text) {
                throw AddressError(text, .privateKey(kind: String(text.prefix(4))))
            }
            if PrivateKeyDetector.looksLikeWIF(text) {
                throw AddressError(text, .privateKey(kind: "WIF"))
            }
            throw AddressError(text, .base58(error))
        }
        if let kind = PrivateKeyDetector.privateKeyKind(payload: payload) {
            throw AddressError(text, .privateKey(kind: kind))
        }
        if payload.count == 78, let version = ExtendedKeyVersion(rawValue: UInt32(bigEndianBytes: payload.prefix(4))) {
            throw AddressError(text, .extendedPublicKey(version))
        }
        guard payload.count == 21 else {
            throw AddressError(text, .notAnAddress("it holds \(payload.count) bytes; an address holds 21"))
        }
        let hash = Array(payload.dropFirst())
        switch payload[0] {
        case network.p2pkhVersion:
            return Address(network: network, scriptPubKey: Script.p2pkh(keyHash: hash), description: text)
        case network.p2shVersion:
            return Address(network: network, scriptPubKey: Script.p2sh(scriptHash: hash), description: text)
        case 0x00, 0x05:
            throw AddressError(text, .wrongNetwork(of: Network.names(sharing: false), expected: network))
        case 0x6f, 0xc4:
            throw AddressError(text, .wrongNetwork(of: Network.names(sharing: true), expected: network))
        default:
            throw AddressError(text, .notAnAddress("its version byte \(payload[0]) is not a bitcoin address version"))
        }
    }
}

extension UInt32 {
    /// The number whose big-endian bytes are `bytes` (4 of them).
    init(bigEndianBytes bytes: some Collection<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The 4 big-endian bytes of the number.
    var bigEndianBytes: [UInt8] {
        [UInt8(self >> 24), UInt8(self >> 16 & 0xff), UInt8(self >> 8 & 0xff), UInt8(self & 0xff)]
    }
}
