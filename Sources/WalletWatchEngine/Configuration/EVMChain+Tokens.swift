import WalletWatchCore

extension EVMChain {
    /// The contracts behind `tokens = ["USDC", ...]` on each named chain: only tokens issued on
    /// that chain by their issuer (or, for DAI on Arbitrum and OP Mainnet, minted by Maker's own
    /// bridge) and confirmed by two independent sources, as researched on 2026-11-27 (the table
    /// and its sources: docs/TOKEN-CONTRACTS.md):
    ///
    /// - USDC on all five: Circle's own list (circlefin/skills, "use-usdc") and the Uniswap default
    ///   token list, the Superchain list or CoinGecko's platform data.
    /// - USDT, EURC and WBTC on Ethereum: the Uniswap, Superchain and PancakeSwap lists agree;
    ///   Tether's and Circle's own rows could not be read.
    /// - DAI on Ethereum, Arbitrum and OP Mainnet: Maker's bridge deployment notes
    ///   (makerdao/arbitrum-dai-bridge, optimism-dai-bridge) and the token lists.
    /// - EURC on Base: Circle's EURC list and the Uniswap list.
    ///
    /// Left out: every bridged copy (USDC.e, USDbC, the USDT and WBTC of the layer 2s, DAI on
    /// Base and Polygon), USDT on Polygon (whether Tether issues it there is not settled by the
    /// sources read), WBTC on BNB Chain (one source only), and the Binance-Peg USDC, USDT and DAI
    /// of BNB Chain, which have 18 decimals and are Binance's tokens, not the issuers'. Watch any
    /// of them as `{ contract = "0x...", currency = "CODE" }` (with a unit of 18 decimals of your
    /// own for the Binance-Peg ones: `walletwatch currency add`).
    public var builtInTokens: [String: EVMAddress] {
        let table: [String: String] = switch self {
        case .ethereum: [
            "USDC": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDT": "0xdAC17F958D2ee523a2206206994597C13D831ec7",
            "DAI": "0x6B175474E89094C44Da98b954EedeAC495271d0F", "EURC": "0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c",
            "WBTC": "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599",
        ]
        case .arbitrum: ["USDC": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "DAI": "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"]
        case .optimism: ["USDC": "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", "DAI": "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"]
        case .base: ["USDC": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "EURC": "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42"]
        case .polygon: ["USDC": "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"]
        case .bsc: [:]
        }
        return table.mapValues { try! EVMAddress(checking: $0) }
    }
}
