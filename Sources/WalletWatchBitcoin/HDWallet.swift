/// A watch-only HD wallet made of a source's `descriptors` and/or one `xpub`: a receive chain,
/// usually a change chain, and the fixed scripts of any non-ranged descriptors.
public struct HDWallet: Sendable, Hashable {
    /// One of the wallet's two derived chains.
    public enum Chain: String, Sendable, Hashable, CaseIterable {
        /// Addresses given out to be paid (BIP44 chain 0; the first multipath element).
        case receive
        /// Addresses the wallet pays its own change to (BIP44 chain 1; the second element).
        case change
    }

    /// One derived address with where it came from.
    public struct DerivedAddress: Sendable, Hashable {
        /// The chain it belongs to.
        public let chain: Chain
        /// Its index on the chain.
        public let index: UInt32
        /// The output script it stands for.
        public let scriptPubKey: [UInt8]
        /// The address text.
        public let address: String
    }

    /// The network all its keys and addresses belong to.
    public let network: Network
    /// The single-path descriptor of the receive chain (ranged).
    public let receiveDescriptor: Descriptor
    /// The single-path descriptor of the change chain, when the wallet has one.
    public let changeDescriptor: Descriptor?
    /// The addresses of the non-ranged descriptors, in the order given: fixed scripts watched
    /// beside the chains, like configured addresses.
    public let listedAddresses: [Address]

    /// Builds the wallet of `descriptors` and `xpub` on `network`.
    ///
    /// The xpub's SLIP-132 prefix picks the script: xpub/tpub `pkh`, ypub/upub `sh(wpkh)`, zpub/vpub
    /// `wpkh`, each `/<0;1>/*`. A multipath descriptor gives both chains; otherwise a descriptor
    /// ending `/0/*` (or with no chain step) is the receive chain and its twin ending `/1/*` the change chain.
    public init(descriptors: [String], xpub: String? = nil, network: Network) throws(WalletError) {
        self.network = network
        enum Role { case both, receive, change }
        var ranged: [(origin: WalletError.Origin, descriptor: Descriptor, role: Role)] = []
        var listed = [Address]()

        for (offset, text) in descriptors.enumerated() {
            let origin = WalletError.Origin.descriptor(offset + 1)
            let descriptor: Descriptor
            do {
                descriptor = try Descriptor(text, network: network)
            } catch {
                throw WalletError(origin, .descriptor(error))
            }
            guard descriptor.isRanged else {
                for branch in 0..<descriptor.branchCount {
                    // Non-ranged descriptors of every supported type have an address.
                    let script = (try? descriptor.scriptPubKey(branch: branch)) ?? []
                    if let address = Address(scriptPubKey: script, network: network) { listed.append(address) }
                }
                continue
            }
            switch descriptor.branchCount {
            case 1: ranged.append((origin, descriptor, descriptor.chainStep == 1 ? .change : .receive))
            case 2: ranged.append((origin, descriptor, .both))
            default:
                throw WalletError(origin, .cannotFormWallet("its multipath step has \(descriptor.branchCount) elements; a wallet's has two, <receive;change>, as in /<0;1>/*"))
            }
        }
        if let xpub {
            ranged.append((.xpub, try Self.descriptor(forXpub: xpub, network: network), .both))
        }

        let receivers = ranged.filter { $0.role != .change }
        let changes = ranged.filter { $0.role == .change }
        guard let receiver = receivers.first else {
            if let change = changes.first {
                throw WalletError(change.origin, .cannotFormWallet("it ends in /1/*, a change chain, but no descriptor gives the receive chain (/0/*); write both, or one with /<0;1>/*"))
            }
            throw WalletError(nil, .cannotFormWallet(descriptors.isEmpty
                ? "an HD wallet needs `descriptors` or `xpub`"
                : "no descriptor is ranged (ends in /*); an HD wallet needs one, or an `xpub`; fixed addresses go in `addresses`"))
        }
        guard receivers.count == 1 else {
            throw WalletError(receivers[1].origin, .cannotFormWallet("\(receiver.origin) already gives the receive chain; one wallet has one receive chain (write one descriptor with /<0;1>/*)"))
        }
        var change: Descriptor?
        switch (receiver.role, changes.count) {
        case (.both, 0):
            let branches = receiver.descriptor.branches
            receiveDescriptor = branches[0]
            change = branches[1]
        case (.both, _):
            throw WalletError(changes[0].origin, .cannotFormWallet("\(receiver.origin) already gives the change chain (its multipath step's second element)"))
        case (_, 0):
            receiveDescriptor = receiver.descriptor
        case (_, 1):
            let twin = receiver.descriptor.chainStep == 0 ? try? receiver.descriptor.replacingChainStep(with: 1) : nil
            guard let twin, twin == changes[0].descriptor else {
                throw WalletError(changes[0].origin, .cannotFormWallet("it is not the change twin of \(receiver.origin): they must be equal but for /0/* and /1/*"))
            }
            receiveDescriptor = receiver.descriptor
            change = changes[0].descriptor
        default:
            throw WalletError(changes[1].origin, .cannotFormWallet("\(changes[0].origin) already gives the change chain"))
        }
        changeDescriptor = change
        listedAddresses = listed
    }

    /// The descriptor an `xpub` setting stands for: its SLIP-132 prefix picks the script.
    static func descriptor(forXpub text: String, network: Network) throws(WalletError) -> Descriptor {
        let key: ExtendedPublicKey
        do {
            key = try ExtendedPublicKey(text)
        } catch {
            throw WalletError(.xpub, .extendedKey(error))
        }
        guard key.version.belongs(to: network) else {
            throw WalletError(.xpub, .extendedKey(ExtendedKeyError(.wrongNetwork(key.version, expected: network))))
        }
        let plain = key.withVersion(key.version.plainPublic).description
        let body: String
        switch key.version.purpose {
        case .legacy: body = "pkh(\(plain)/<0;1>/*)"
        case .nestedSegwit: body = "sh(wpkh(\(plain)/<0;1>/*))"
        case .nativeSegwit: body = "wpkh(\(plain)/<0;1>/*)"
        case .nestedMultisig, .nativeMultisig:
            throw WalletError(.xpub, .multisigCosignerKey(key.version))
        }
        do {
            return try Descriptor(body, network: network)
        } catch {
            // Only a key whose first children are invalid (odds of 1 in 2^127) gets here.
            throw WalletError(.xpub, .descriptor(error))
        }
    }

    /// Whether the wallet has a change chain.
    public var hasChangeChain: Bool {
        changeDescriptor != nil
    }

    /// The single-path descriptor of `chain`, nil for a change chain the wallet lacks.
    public func descriptor(for chain: Chain) -> Descriptor? {
        chain == .receive ? receiveDescriptor : changeDescriptor
    }

    /// The scriptPubKey at `index` of `chain`: one CKDpub per key of the descriptor.
    public func scriptPubKey(chain: Chain, index: UInt32) throws(DerivationError) -> [UInt8] {
        guard let descriptor = descriptor(for: chain) else { throw DerivationError.noChangeChain }
        return try descriptor.scriptPubKey(index: index)
    }

    /// The address at `index` of `chain`.
    public func address(chain: Chain, index: UInt32) throws(DerivationError) -> String {
        guard let descriptor = descriptor(for: chain) else { throw DerivationError.noChangeChain }
        return try descriptor.address(index: index)
    }

    /// The addresses of `chain` at `indexes`, in order, skipping an index BIP32 says has no key.
    public func derive(chain: Chain, indexes: Range<UInt32>) throws(DerivationError) -> [DerivedAddress] {
        guard let descriptor = descriptor(for: chain) else { throw DerivationError.noChangeChain }
        var result = [DerivedAddress]()
        result.reserveCapacity(indexes.count)
        for index in indexes {
            let script: [UInt8]
            do {
                script = try descriptor.scriptPubKey(index: index)
            } catch .invalidChild {
                continue
            }
            guard let address = Address(scriptPubKey: script, network: network) else { continue }
            result.append(DerivedAddress(chain: chain, index: index, scriptPubKey: script, address: address.description))
        }
        return result
    }
}
