/// One key expression of a descriptor (BIP380, BIP389): an optional origin and either a plain
/// public key or an xpub with non-hardened steps, at most one multipath group and a wildcard.
struct DescriptorKey: Sendable, Hashable {
    /// `[fingerprint/path]`: where the key came from. Metadata only: scripts do not depend on it.
    struct Origin: Sendable, Hashable {
        var fingerprint: UInt32
        var path: [UInt32]
    }

    /// A step after an xpub: one index, or BIP389's `<a;b;...>` group of alternatives.
    enum Step: Sendable, Hashable {
        case index(UInt32)
        case multipath([UInt32])
    }

    enum Material: Sendable, Hashable {
        /// A hex public key: 33 bytes compressed, 65 uncompressed, or 32 x-only (in `tr`).
        case plain([UInt8])
        /// An xpub/tpub, the steps after it, and whether it ends in `/*`. `resolved` holds, for each
        /// multipath branch (one without multipath), the key after every step: derived once at parse
        /// so that each ranged index costs one CKDpub.
        case extended(ExtendedPublicKey, steps: [Step], ranged: Bool, resolved: [ExtendedPublicKey])
    }

    var origin: Origin?
    var material: Material

    /// Whether the key ends in `/*`.
    var isRanged: Bool {
        if case .extended(_, _, true, _) = material { true } else { false }
    }

    /// The number of alternatives of its multipath group, or nil without one.
    var multipathCount: Int? {
        guard case .extended(_, let steps, _, _) = material else { return nil }
        for case .multipath(let indexes) in steps {
            return indexes.count
        }
        return nil
    }

    /// The public key for a multipath `branch` and, for a ranged key, `index`.
    func publicKey(branch: Int, index: UInt32) throws(DerivationError) -> [UInt8] {
        switch material {
        case .plain(let key):
            return key
        case .extended(_, _, let ranged, let resolved):
            let parent = resolved.count == 1 ? resolved[0] : resolved[branch]
            return ranged ? try parent.child(index).publicKey : parent.publicKey
        }
    }

    /// The key with its multipath group replaced by its `branch`-th alternative (BIP389 expansion).
    func selecting(branch: Int) -> DescriptorKey {
        guard case .extended(let key, let steps, let ranged, let resolved) = material, resolved.count > 1 else { return self }
        let single = steps.map { step -> Step in
            if case .multipath(let indexes) = step { .index(indexes[branch]) } else { step }
        }
        return DescriptorKey(origin: origin, material: .extended(key, steps: single, ranged: ranged, resolved: [resolved[branch]]))
    }

    /// The index of the last step before `/*` when it is a plain index (the 0 of `/0/*`).
    var lastStepBeforeWildcard: UInt32? {
        guard case .extended(_, let steps, true, _) = material, case .index(let last)? = steps.last else { return nil }
        return last
    }

    /// The ranged key with the last step before `/*` replaced: `/0/*` becomes `/1/*`.
    func replacingLastStep(with index: UInt32) throws(DerivationError) -> DescriptorKey {
        guard case .extended(let key, var steps, true, _) = material, case .index = steps.last else { return self }
        steps[steps.count - 1] = .index(index)
        return DescriptorKey(origin: origin, material: .extended(key, steps: steps, ranged: true,
                                                                 resolved: try Self.resolve(key, steps: steps)))
    }

    /// The key after `steps`, once per multipath alternative.
    static func resolve(_ key: ExtendedPublicKey, steps: [Step]) throws(DerivationError) -> [ExtendedPublicKey] {
        let count = steps.lazy.compactMap { step -> Int? in
            if case .multipath(let indexes) = step { indexes.count } else { nil }
        }.first ?? 1
        var result = [ExtendedPublicKey]()
        for branch in 0..<count {
            var derived = key
            for step in steps {
                switch step {
                case .index(let index): derived = try derived.child(index)
                case .multipath(let indexes): derived = try derived.child(indexes[branch])
                }
            }
            result.append(derived)
        }
        return result
    }

    /// The key as BIP380 writes it, with `h` for hardened origin steps.
    var text: String {
        var text = ""
        if let origin {
            text += "[" + Hex.encode(origin.fingerprint.bigEndianBytes)
            for index in origin.path {
                text += "/" + Self.stepText(index)
            }
            text += "]"
        }
        switch material {
        case .plain(let key):
            text += Hex.encode(key)
        case .extended(let key, let steps, let ranged, _):
            text += key.description
            for step in steps {
                switch step {
                case .index(let index): text += "/\(index)"
                case .multipath(let indexes): text += "/<" + indexes.map(String.init).joined(separator: ";") + ">"
                }
            }
            if ranged { text += "/*" }
        }
        return text
    }

    private static func stepText(_ index: UInt32) -> String {
        index >= ExtendedPublicKey.hardenedOffset ? "\(index - ExtendedPublicKey.hardenedOffset)h" : "\(index)"
    }
}
