import Logging
// Temporary stand-in until the libcurl client lands; never used by a passing test.
public final class CurlHTTPClient: HTTPClient {
    public init(configuration: HTTPClientConfiguration, logger: Logger) {}
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse { fatalError("not yet") }
    public func stream(_ request: HTTPRequest, into consumer: any HTTPBodyConsumer) async throws -> HTTPResponseHead { fatalError("not yet") }
}
