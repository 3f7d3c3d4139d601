/// The walletwatch version (`walletwatch --version`, the HTTP User-Agent).
public enum WalletWatchVersion {
    public static let current = "0.1.0"
}
