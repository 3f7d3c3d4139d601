import Foundation
import WalletWatchCore
import WalletWatchEngine

/// A question put to the person at the terminal (SPEC.md section 28: trust on first use of a
/// certificate). Asked only when both stdin and stderr are a terminal: a script, a pipe or a
/// service is never asked anything, and gets the refusal that says what to do instead.
enum TerminalQuestion {
    /// Whether someone can be asked: stdin and stderr are a terminal.
    static var isAvailable: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Shows `certificate`'s fingerprint and asks whether to pin it; only `y` or `yes` trusts it.
    static func trust(_ certificate: UntrustedCertificate) async -> Bool {
        Output.standardError("\(certificate.server) presents a certificate this system does not trust (a node's own, self-signed one?).")
        Output.standardError("  SHA-256 fingerprint: \(certificate.pin.colonSeparated)")
        Output.standardError("Compare it with the fingerprint your node shows (or `openssl x509 -noout -fingerprint -sha256 -in CERT` on it).")
        Output.standardErrorText(DisplaySafety.escaped("Pin this certificate for source '\(certificate.source)'? [y/N] "))
        let answer = await readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    /// One line from stdin, read on a thread of its own: the wait for a person's answer holds
    /// none of the cooperative threads.
    private static func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Swift.readLine(strippingNewline: true)) }
        }
    }
}
