import Logging
import Synchronization

/// The production ``HTTPClient``: libcurl, on dedicated threads.
///
/// Each transfer runs on one of a few threads of the client's own (made on demand, at most
/// `maximumConcurrentTransfers`, then kept with their open connections); the calling task waits
/// on a continuation, so no Swift concurrency thread ever blocks on the network. Backoff pauses
/// between retries are `Task.sleep`s in the calling task, not on a transfer thread.
///
/// Cancelling the calling task aborts the transfer at once (also during a backoff pause) and
/// throws ``NetError`` with kind ``NetError/Kind/cancelled``, never `CancellationError`.
/// An error thrown by a stream consumer is rethrown unchanged.
public final class CurlHTTPClient: HTTPClient {
    /// The limits and identity of every request.
    public let configuration: HTTPClientConfiguration
    private let logger: Logger
    private let policy: RetryPolicy
    /// Nil when libcurl could not be initialised; every request then fails with that reason.
    /// Internal rather than private so that tests can watch the threads end.
    let pool: TransferThreadPool?
    private let counters = Mutex(HTTPClientStatistics())

    /// A client with its own transfer threads, which end when the client goes away. Beyond
    /// `maximumConcurrentTransfers` at once, transfers wait for a thread (their timeout starts
    /// when they do).
    public init(configuration: HTTPClientConfiguration, logger: Logger, maximumConcurrentTransfers: Int = 16) {
        self.configuration = configuration
        self.logger = logger
        policy = RetryPolicy(configuration)
        // Without the share, transfers still work; they only resolve names per thread.
        pool = CurlRuntime.initialize()
            ? TransferThreadPool(share: CurlShare(), maximumThreads: maximumConcurrentTransfers)
            : nil
    }

    deinit {
        // No transfer is running: each call keeps the client alive until its transfer ended.
        pool?.shutDown()
    }

    /// Counters since the client was made.
    public var statistics: HTTPClientStatistics {
        counters.withLock { $0 }
    }

    /// Sends `request` and returns the whole response (see ``HTTPClient/send(_:)``).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (head, body) = try await execute(request, sink: .collect)
        return HTTPResponse(head: head, body: body)
    }

    /// Sends `request` and streams a 2xx body into `consumer` (see ``HTTPClient/stream(_:into:)``).
    public func stream(_ request: HTTPRequest, into consumer: any HTTPBodyConsumer) async throws -> HTTPResponseHead {
        try await execute(request, sink: .stream(consumer)).head
    }

    // MARK: - Attempts and retries

    private func execute(_ request: HTTPRequest, sink: BodySink) async throws -> (head: HTTPResponseHead, body: [UInt8]) {
        counters.withLock { $0.requests += 1 }
        do {
            return try await attempt(request, sink: sink)
        } catch let error as NetError where error.kind != .cancelled {
            counters.withLock { $0.failures += 1 }
            throw error
        }
    }

    private func attempt(_ request: HTTPRequest, sink: BodySink) async throws -> (head: HTTPResponseHead, body: [UInt8]) {
        try request.validate()
        let timeout = request.timeout ?? configuration.timeout
        let limits = TransferLimits(
            connectTimeout: configuration.connectTimeout,
            timeout: timeout,
            timeLeft: timeout,
            maxResponseBytes: max(0, request.maxResponseBytes ?? configuration.maxResponseBytes),
            maxRedirects: max(0, request.maxRedirects ?? configuration.maxRedirects),
            userAgent: configuration.userAgent,
            route: request.route ?? configuration.route
        )
        let retries = max(0, request.retries ?? policy.retries)
        var retry = 0
        while true {
            if Task.isCancelled { throw request.cancellationError }
            let result = await followingRedirects(request, limits: limits, sink: sink)
            counters.withLock {
                $0.attempts += 1
                $0.connectionsOpened += result.newConnections
            }
            switch result.outcome {
            case .response(let head, let body):
                guard retry < retries, RetryPolicy.retryableStatuses.contains(head.status) else {
                    logger.debug("\(request.method.rawValue) \(request.loggedURL): HTTP \(head.status)")
                    return (head, body)
                }
                retry += 1
                try await pause(request, retry: retry, of: retries, reason: "HTTP \(head.status)",
                                delay: policy.delay(after: head, beforeRetry: retry))
            case .failure(let error, let bodyReachedConsumer):
                // A timeout is not retried: a source that is slow now is cut off after one
                // timeout, not after retries + 1 of them. Neither is a stream that has begun.
                guard error.isRetryable, !bodyReachedConsumer, retry < retries else { throw error }
                retry += 1
                try await pause(request, retry: retry, of: retries, reason: error.detail, delay: policy.backoff(beforeRetry: retry))
            case .consumerFailed(let error):
                throw error
            }
        }
    }

    /// Logs the coming retry and waits for it, in the calling task.
    private func pause(_ request: HTTPRequest, retry: Int, of retries: Int, reason: String, delay: Duration) async throws {
        counters.withLock { $0.retries += 1 }
        logger.notice(
            "\(request.method.rawValue) \(request.loggedURL): attempt \(retry) of \(retries + 1) failed (\(reason)); retrying in \(delay.shortDescription)",
            metadata: [
                "http.method": "\(request.method.rawValue)",
                "http.url": "\(request.loggedURL)",
                "http.attempt": "\(retry + 1)",
                "http.retry.reason": "\(reason)",
            ]
        )
        do {
            try await Task.sleep(for: delay)
        } catch {
            throw request.cancellationError
        }
    }

    /// Runs one transfer on a transfer thread and waits for it without blocking.
    func run(_ transfer: CurlTransfer) async -> TransferResult {
        guard let pool else {
            let error = transfer.netError(.transport, "libcurl could not be initialised")
            return TransferResult(outcome: .failure(error, bodyReachedConsumer: false), newConnections: 0)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let submitted = pool.submit { handles in
                    let result = transfer.run(with: handles)
                    return { continuation.resume(returning: result) }
                }
                if !submitted {
                    let error = transfer.netError(.transport, "could not start a thread for the transfer")
                    continuation.resume(returning: TransferResult(outcome: .failure(error, bodyReachedConsumer: false), newConnections: 0))
                }
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}
