import Foundation
import WalletWatchCore
import WalletWatchNet

/// A secret that could not be read. Names where it was looked for, never its value.
public struct SecretError: Classified, Equatable {
    public let message: String
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}

extension SecretReference {
    /// Reads the bearer token of `source` from its file or environment variable, trimmed.
    public func readToken(source: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BearerToken {
        switch self {
        case .file(let path):
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw SecretError(message: "source '\(source)': cannot read token_file \(path): \(Self.reason(error))")
            }
            let token = text.trimmingSpaces
            guard !token.isEmpty else { throw SecretError(message: "source '\(source)': token_file \(path) is empty") }
            return BearerToken(token)
        case .environment(let name):
            guard let value = environment[name]?.trimmingSpaces, !value.isEmpty else {
                throw SecretError(message: "source '\(source)': the environment variable \(name) (token_env) is not set")
            }
            return BearerToken(value)
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.code == NSFileReadNoSuchFileError ? "no such file" : nsError.localizedDescription
    }
}
