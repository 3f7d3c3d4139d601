import WalletWatchBitcoin
import WalletWatchCore

extension WalletSync {
    /// The addresses a pass watches: the stored ones (unless they belong to other keys), the
    /// listed ones, and each chain derived up to its gap limit past its highest used address
    /// (none without an HD wallet), at most `budget` new ones in the pass.
    struct Window {
        let wallet: HDWallet?
        let gapLimits: [HDWallet.Chain: Int]
        /// New addresses the pass may still derive.
        private var budget: Int
        /// Whether a chain would have grown past the budget.
        private(set) var capped = false
        /// By address text.
        private(set) var entries: [String: WalletAddress] = [:]
        /// The next index to derive on each chain.
        private var ends: [HDWallet.Chain: Int] = [:]
        private var highestUsed: [HDWallet.Chain: Int] = [:]
        /// Whether stored addresses were dropped because the wallet's keys do not derive them.
        private(set) var replacedStored = false

        init(wallet: HDWallet?, listed: [Address], stored: [WalletAddress], gapLimits: [HDWallet.Chain: Int], budget: Int) throws {
            self.wallet = wallet
            self.gapLimits = gapLimits
            self.budget = budget
            var stored = stored
            if try !Self.derives(wallet, stored) {
                stored.removeAll { $0.chain != .listed }
                replacedStored = true
            }
            let storedListed = Dictionary(stored.filter { $0.chain == .listed }.map { ($0.address, $0) }) { first, _ in first }
            for entry in stored where entry.chain != .listed {
                entries[entry.address] = entry
                let chain = Self.chain(entry.chain)
                ends[chain] = max(ends[chain] ?? 0, entry.index + 1)
                if entry.activity.isUsed { highestUsed[chain] = max(highestUsed[chain] ?? -1, entry.index) }
            }
            for (position, address) in listed.enumerated() where entries[address.description] == nil {
                var entry = storedListed[address.description]
                    ?? WalletAddress(chain: .listed, index: position, script: Hex.encode(address.scriptPubKey), address: address.description)
                entry.index = position
                entries[address.description] = entry
            }
            for chain in chains { _ = try grow(chain) }
        }

        /// The chains the wallet has.
        var chains: [HDWallet.Chain] {
            guard let wallet else { return [] }
            return wallet.hasChangeChain ? [.receive, .change] : [.receive]
        }

        /// Every watched address: receive chain, change chain, listed, each by index.
        var addresses: [WalletAddress] {
            entries.values.sorted { (Self.order($0.chain), $0.index) < (Self.order($1.chain), $1.index) }
        }

        func entry(_ address: String) -> WalletAddress {
            entries[address]!
        }

        /// Takes in what a pass learnt about an address; returns the addresses the window grew by.
        mutating func update(_ address: WalletAddress) throws -> [String] {
            entries[address.address] = address
            guard address.chain != .listed, address.activity.isUsed else { return [] }
            let chain = Self.chain(address.chain)
            highestUsed[chain] = max(highestUsed[chain] ?? -1, address.index)
            return try grow(chain)
        }

        /// Derives `chain` up to its gap limit past its highest used address, within the
        /// pass's budget; the new addresses.
        private mutating func grow(_ chain: HDWallet.Chain) throws -> [String] {
            let end = ends[chain] ?? 0
            let wanted = (highestUsed[chain] ?? -1) + 1 + (gapLimits[chain] ?? 20)
            guard wanted > end, let wallet else { return [] }
            let target = min(wanted, end + budget)
            if target < wanted { capped = true }
            guard target > end else { return [] }
            budget -= target - end
            ends[chain] = target
            let derived: [HDWallet.DerivedAddress]
            do {
                derived = try wallet.derive(chain: chain, indexes: UInt32(end)..<UInt32(min(target, Int(ExtendedPublicKey.hardenedOffset))))
            } catch {
                throw DerivationFailure(description: "\(chain) addresses \(end) to \(target - 1): \(error)")
            }
            var added: [String] = []
            for address in derived where entries[address.address] == nil {
                entries[address.address] = WalletAddress(chain: chain == .receive ? .receive : .change, index: Int(address.index),
                                                         script: Hex.encode(address.scriptPubKey), address: address.address)
                added.append(address.address)
            }
            return added
        }

        /// Whether `wallet` derives the stored addresses: its first receive and change addresses
        /// are the stored ones (two derivations, not one per stored address). Without a wallet,
        /// no stored chain address is its.
        static func derives(_ wallet: HDWallet?, _ stored: [WalletAddress]) throws -> Bool {
            guard let wallet else { return !stored.contains { $0.chain != .listed } }
            for entry in stored where entry.chain != .listed && entry.index == 0 {
                let chain = Self.chain(entry.chain)
                guard chain == .receive || wallet.hasChangeChain else { return false }
                guard (try? wallet.scriptPubKey(chain: chain, index: 0)).map(Hex.encode) == entry.script else { return false }
            }
            return true
        }

        static func chain(_ chain: WalletChain) -> HDWallet.Chain {
            chain == .change ? .change : .receive
        }

        static func order(_ chain: WalletChain) -> Int {
            switch chain {
            case .receive: 0
            case .change: 1
            case .listed: 2
            }
        }
    }

    /// The wallet's keys could not derive an address (BIP32 says some indexes have no key; the
    /// odds are 1 in 2^127 an index).
    struct DerivationFailure: Error, CustomStringConvertible {
        let description: String
    }
}
