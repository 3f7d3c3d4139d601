/// An output script descriptor (BIP380-386, BIP389) of the kinds walletwatch watches: `pkh`,
/// `wpkh`, `sh(wpkh)`, `tr(KEY)` (key path only), `sh(multi|sortedmulti)`,
/// `wsh(multi|sortedmulti)` and `sh(wsh(multi|sortedmulti))`.
public struct Descriptor: Sendable, Hashable, CustomStringConvertible {
    /// The script a descriptor produces.
    public enum ScriptType: String, Sendable, Hashable {
        /// `pkh(KEY)`: P2PKH.
        case pkh
        /// `wpkh(KEY)`: P2WPKH.
        case wpkh
        /// `sh(wpkh(KEY))`: P2WPKH nested in P2SH.
        case shWpkh = "sh(wpkh)"
        /// `tr(KEY)`: P2TR, key path only (BIP86).
        case tr
        /// `sh(multi(...))` or `sh(sortedmulti(...))`: P2SH multisig.
        case shMulti = "sh(multi)"
        /// `wsh(multi(...))` or `wsh(sortedmulti(...))`: P2WSH multisig.
        case wshMulti = "wsh(multi)"
        /// `sh(wsh(multi(...)))` or with sortedmulti: P2WSH multisig nested in P2SH.
        case shWshMulti = "sh(wsh(multi))"
    }

    /// The script type.
    public let scriptType: ScriptType
    /// The network whose keys it holds.
    public let network: Network
    /// The keys in the order written: one, or a multisig's.
    let keys: [DescriptorKey]
    /// A multisig's threshold (0 for single-key descriptors).
    let threshold: Int
    /// Whether a multisig sorts its keys (`sortedmulti`, BIP67).
    let sorted: Bool

    init(scriptType: ScriptType, network: Network, keys: [DescriptorKey], threshold: Int = 0, sorted: Bool = false) {
        self.scriptType = scriptType
        self.network = network
        self.keys = keys
        self.threshold = threshold
        self.sorted = sorted
    }

    /// Parses `text` for `network`. A `#checksum`, when present, is verified over the text exactly
    /// as written. Private keys, hardened steps after an xpub, keys of another network and
    /// functions outside walletwatch's scope are refused, each with its position.
    public init(_ text: String, network: Network) throws(DescriptorError) {
        self = try DescriptorParser.parse(text, network: network)
    }

    /// The BIP380 checksum of `text` (written without `#`), or nil when `text` holds a character
    /// outside the descriptor character set.
    public static func checksum(_ text: String) -> String? {
        DescriptorChecksum.checksum(text)
    }

    /// Whether it stands for a range of scripts (a key ends in `/*`) rather than one.
    public var isRanged: Bool {
        keys.contains(where: \.isRanged)
    }

    /// The number of descriptors its multipath groups stand for (BIP389); 1 without multipath.
    public var branchCount: Int {
        keys.lazy.compactMap(\.multipathCount).first ?? 1
    }

    /// The single-path descriptors it stands for, in order (BIP389): for `/<0;1>/*`, the receive
    /// descriptor `/0/*` and then the change descriptor `/1/*`.
    public var branches: [Descriptor] {
        guard branchCount > 1 else { return [self] }
        return (0..<branchCount).map { branch in
            Descriptor(scriptType: scriptType, network: network, keys: keys.map { $0.selecting(branch: branch) },
                       threshold: threshold, sorted: sorted)
        }
    }

    /// The scriptPubKey at `index` of the multipath `branch` (0 without multipath); `index` is
    /// ignored when the descriptor is not ranged. Each ranged key costs one CKDpub.
    public func scriptPubKey(index: UInt32 = 0, branch: Int = 0) throws(DerivationError) -> [UInt8] {
        precondition(branch >= 0 && branch < branchCount, "branch \(branch) of a descriptor with \(branchCount)")
        if isRanged && index >= ExtendedPublicKey.hardenedOffset {
            throw DerivationError.hardenedStep(index)
        }
        var publicKeys = [[UInt8]]()
        for key in keys {
            publicKeys.append(try key.publicKey(branch: branch, index: index))
        }
        switch scriptType {
        case .pkh:
            return Script.p2pkh(publicKey: publicKeys[0])
        case .wpkh:
            return Script.p2wpkh(publicKey: publicKeys[0])
        case .shWpkh:
            return Script.p2sh(redeemScript: Script.p2wpkh(publicKey: publicKeys[0]))
        case .tr:
            // BIP86: the internal key is the x-only form of the key; no script tree.
            let internalKey = publicKeys[0].count == 32 ? publicKeys[0] : Array(publicKeys[0].dropFirst())
            guard let outputKey = Taproot.outputKey(internalKey: internalKey) else { throw DerivationError.invalidChild(index) }
            return Script.p2tr(outputKey: outputKey)
        case .shMulti:
            return Script.p2sh(redeemScript: multisigScript(publicKeys))
        case .wshMulti:
            return Script.p2wsh(witnessScript: multisigScript(publicKeys))
        case .shWshMulti:
            return Script.p2sh(redeemScript: Script.p2wsh(witnessScript: multisigScript(publicKeys)))
        }
    }

    /// The address at `index` of `branch` (see ``scriptPubKey(index:branch:)``).
    public func address(index: UInt32 = 0, branch: Int = 0) throws(DerivationError) -> String {
        let script = try scriptPubKey(index: index, branch: branch)
        // Every script type above has an address; a failure here is a bug in this file.
        guard let address = Address(scriptPubKey: script, network: network) else {
            preconditionFailure("no address for \(scriptType) script \(Hex.encode(script))")
        }
        return address.description
    }

    private func multisigScript(_ publicKeys: [[UInt8]]) -> [UInt8] {
        sorted ? Script.sortedMulti(threshold: threshold, publicKeys: publicKeys)
            : Script.multi(threshold: threshold, publicKeys: publicKeys)
    }

    /// The descriptor in canonical form with its checksum: `h` for hardened origin steps, keys as
    /// parsed. Parsing it gives an equal descriptor.
    public var description: String {
        let body = bodyText
        return body + "#" + (DescriptorChecksum.checksum(body) ?? "")
    }

    private var bodyText: String {
        let keyList = keys.map(\.text).joined(separator: ",")
        let multi = "\(sorted ? "sortedmulti" : "multi")(\(threshold),\(keyList))"
        switch scriptType {
        case .pkh: return "pkh(\(keyList))"
        case .wpkh: return "wpkh(\(keyList))"
        case .shWpkh: return "sh(wpkh(\(keyList)))"
        case .tr: return "tr(\(keyList))"
        case .shMulti: return "sh(\(multi))"
        case .wshMulti: return "wsh(\(multi))"
        case .shWshMulti: return "sh(wsh(\(multi)))"
        }
    }

    // MARK: - Receive and change twins

    /// The 0 or 1 before `/*` shared by every ranged key, or nil when they differ or end otherwise.
    var chainStep: UInt32? {
        let steps = Set(keys.filter(\.isRanged).map(\.lastStepBeforeWildcard))
        guard steps.count == 1, let step = steps.first ?? nil else { return nil }
        return step
    }

    /// The descriptor with the last step before each `/*` replaced by `index`.
    func replacingChainStep(with index: UInt32) throws(DerivationError) -> Descriptor {
        var replaced = [DescriptorKey]()
        for key in keys {
            replaced.append(key.isRanged ? try key.replacingLastStep(with: index) : key)
        }
        return Descriptor(scriptType: scriptType, network: network, keys: replaced, threshold: threshold, sorted: sorted)
    }
}
