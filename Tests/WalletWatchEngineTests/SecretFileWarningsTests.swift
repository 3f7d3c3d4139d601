import Foundation
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine

@Suite("Secret files others can use")
struct SecretFileWarningsTests {
    @Test("any permission for group or others is named with its mode and the fix; owner-only modes are fine")
    func modes() throws {
        let folder = TemporaryDirectory("walletwatch-secret-modes")
        let path = folder.write("token", "t\n")
        let cases: [(mode_t, String?)] = [
            (0o600, nil), (0o400, nil), (0o700, nil),
            (0o640, "can be read by other users (mode 0640)"),
            (0o604, "can be read by other users (mode 0604)"),
            (0o620, "can be changed by other users (mode 0620)"),
            (0o666, "can be read and changed by other users (mode 0666)"),
            (0o711, "can be used by other users (mode 0711)"),
        ]
        for (mode, expected) in cases {
            #expect(chmod(path, mode) == 0)
            let problem = SecretFileWarnings.problem(path, what: "token_file")
            if let expected {
                #expect(problem == "token_file \(path) \(expected); run chmod 600 \(path)", "mode \(String(mode, radix: 8))")
            } else {
                #expect(problem == nil, "mode \(String(mode, radix: 8))")
            }
        }
        #expect(SecretFileWarnings.problem(folder.file("missing"), what: "token_file") == nil, "reading it will say it is missing")
    }

    @Test("one warning per file, however often it is read; another file gets its own")
    func oncePerFile() throws {
        let folder = TemporaryDirectory("walletwatch-secret-once")
        let first = folder.write("a.token", "a\n")
        let second = folder.write("b.token", "b\n")
        #expect(chmod(first, 0o644) == 0 && chmod(second, 0o644) == 0)
        let received = Mutex<[String]>([])
        let warnings = SecretFileWarnings { text in received.withLock { $0.append(text) } }
        for _ in 0..<3 { warnings.check(first, what: "token_file") }
        warnings.check(second, what: "secret_file")
        warnings.check(first, what: "token_file")
        let texts = received.withLock { $0 }
        #expect(texts.count == 2)
        #expect(texts.first?.hasPrefix("token_file \(first) ") == true)
        #expect(texts.last?.hasPrefix("secret_file \(second) ") == true)
    }
}
