/// An Arkade (Ark Labs) address, version 0: `ark1...` on Bitcoin, `tark1...` on the test networks.
///
/// The format is arkd's own (pkg/ark-lib/encoding.go, `EncodeV0`/`DecodeAddressV0`, read at
/// v0.9.15): bech32m over 65 bytes, a version byte (0), the Ark server's x-only signer key and
/// the x-only taproot key of the VTXOs paid to the address. About 114 characters, so it is
/// decoded without BIP173's 90-character limit (btcd's `DecodeNoLimit`, which also accepts the
/// Bech32 checksum). The VTXOs an Ark server's indexer holds for the address are the ones whose
/// script is ``vtxoScript``: `OP_1 <taproot key>` (`GetPkScript`), a pay-to-taproot script.
public struct ArkAddress: Sendable, Hashable {
    /// `ark` or `tark`.
    public let hrp: String
    public let version: UInt8
    /// The Ark server's x-only signer key (32 bytes).
    public let signerKey: [UInt8]
    /// The x-only taproot key of the address's VTXOs (32 bytes).
    public let vtxoTaprootKey: [UInt8]

    /// The prefix of Ark addresses on `network`: arkd names Bitcoin's `ark`, every test network's `tark`.
    public static func hrp(for network: Network) -> String {
        network == .bitcoin ? "ark" : "tark"
    }

    /// Decodes `text`, refusing what arkd refuses: another prefix, a payload that is not 65
    /// bytes, a version other than 0, a key that is not on the curve.
    public init(_ text: String) throws(ArkAddressError) {
        let decoded: Bech32String
        do {
            decoded = try Bech32.decode(text, maximumLength: nil)
        } catch {
            throw ArkAddressError(.bech32(error))
        }
        guard decoded.hrp == "ark" || decoded.hrp == "tark" else { throw ArkAddressError(.unknownPrefix(decoded.hrp)) }
        let bytes: [UInt8]
        switch Bech32.convertBits(decoded.data, from: 5, to: 8, pad: false) {
        case .success(let converted): bytes = converted
        case .failure: throw ArkAddressError(.badPadding)
        }
        guard bytes.count == 65 else { throw ArkAddressError(.length(bytes.count)) }
        guard bytes[0] == 0 else { throw ArkAddressError(.version(bytes[0])) }
        let signer = Array(bytes[1..<33]), vtxo = Array(bytes[33..<65])
        guard Secp256k1.isValidXOnly(signer) else { throw ArkAddressError(.invalidKey("signer")) }
        guard Secp256k1.isValidXOnly(vtxo) else { throw ArkAddressError(.invalidKey("VTXO taproot")) }
        hrp = decoded.hrp
        version = 0
        signerKey = signer
        vtxoTaprootKey = vtxo
    }

    /// The version 0 address of `vtxoTaprootKey` under the server `signerKey` on `network`
    /// (both x-only, 32 bytes): what a wallet shows its user, and what the simulator serves.
    public static func encode(network: Network, signerKey: [UInt8], vtxoTaprootKey: [UInt8]) -> String {
        precondition(signerKey.count == 32 && vtxoTaprootKey.count == 32, "x-only keys are 32 bytes")
        guard case .success(let data) = Bech32.convertBits([0] + signerKey + vtxoTaprootKey, from: 8, to: 5, pad: true) else {
            preconditionFailure("8-to-5 regrouping with padding cannot fail")
        }
        return Bech32.encode(hrp: hrp(for: network), data: data, encoding: .bech32m)
    }

    /// Whether the address belongs to `network` (its prefix is that network's).
    public func belongs(to network: Network) -> Bool { hrp == Self.hrp(for: network) }

    /// The script of the address's VTXOs: `OP_1 PUSH32 <taproot key>`.
    public var vtxoScript: [UInt8] { [0x51, 0x20] + vtxoTaprootKey }

    /// ``vtxoScript`` in lowercase hex, as the indexer takes and returns it.
    public var vtxoScriptHex: String { Hex.encode(vtxoScript) }
}

/// Why a string is not an Ark address.
public struct ArkAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case bech32(Bech32Error)
        case unknownPrefix(String)
        case badPadding
        case length(Int)
        case version(UInt8)
        case invalidKey(String)
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .bech32(let error): "is not an Ark address: it \(error)"
        case .unknownPrefix(let hrp): "is not an Ark address: its prefix is '\(hrp)', not 'ark' (Bitcoin) or 'tark' (test networks)"
        case .badPadding: "is not an Ark address: its data does not regroup into whole bytes"
        case .length(let count): "is not an Ark address: it holds \(count) bytes, not 65 (version, signer key, VTXO key)"
        case .version(let version): "is an Ark address of version \(version); walletwatch reads version 0"
        case .invalidKey(let which): "is not an Ark address: its \(which) key is not a valid x-only public key"
        }
    }
}
