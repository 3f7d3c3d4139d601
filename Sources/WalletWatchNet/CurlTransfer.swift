import CCurl
import Synchronization

/// Where a transfer puts the body it receives.
enum BodySink: Sendable {
    /// Keep the whole body (``HTTPClient/send(_:)``).
    case collect
    /// Hand a 2xx body to the consumer as it arrives; keep only the first bytes of any other.
    case stream(any HTTPBodyConsumer)
}

/// The limits and route of one attempt, resolved from the request and the client's configuration.
struct TransferLimits: Sendable {
    var connectTimeout: Duration
    /// The whole request's time, redirects included (what a timeout error names).
    var timeout: Duration
    /// What is left of `timeout` for this transfer: less than all of it after a redirect.
    var timeLeft: Duration
    var maxResponseBytes: Int
    var maxRedirects: Int
    var userAgent: String
    var route: NetworkRoute
}

/// How one attempt ended.
enum TransferOutcome: Sendable {
    /// A complete response, whatever its status.
    case response(HTTPResponseHead, body: [UInt8])
    /// A transport failure. Once part of the body has reached a stream consumer the request
    /// cannot be retried, hence `bodyReachedConsumer`.
    case failure(NetError, bodyReachedConsumer: Bool)
    /// The stream consumer threw; its error, unchanged.
    case consumerFailed(any Error)
}

/// One transfer's outcome plus what the metrics and the redirect rule want to know about it.
struct TransferResult: Sendable {
    var outcome: TransferOutcome
    /// Connections libcurl had to open (0 when a kept-alive one was reused).
    var newConnections: Int
    /// Where a 3xx response points, resolved against the request's URL by libcurl (which
    /// follows nothing itself: the client applies SPEC.md section 24's rule).
    var redirectURL: String? = nil
}

/// One attempt of one request, run by a transfer thread with that thread's handles.
///
/// The mutable state below the stored constants is touched only by the transfer thread, inside
/// libcurl's callbacks and `run(with:)`; the calling task reads nothing but the returned result,
/// handed over through a continuation. Only the cancellation flag and the wake-up handle are
/// shared, and those are atomic or locked.
final class CurlTransfer: @unchecked Sendable {
    /// At most this much of a non-2xx streamed body is kept, for error messages.
    static let errorBodyLimit = 4096

    let request: HTTPRequest
    let limits: TransferLimits
    let sink: BodySink

    private let cancelled = Atomic<Bool>(false)
    /// The multi handle while the transfer runs, so that `cancel()` can wake its poll.
    private let activeMulti = Mutex<MultiHandle?>(nil)

    // Transfer-thread state.
    private var status = 0
    private var headers: [HTTPHeader] = []
    private var body: [UInt8] = []
    private var receivedBytes = 0
    private var bodyReachedConsumer = false
    private var abortReason: AbortReason?

    /// Why our own callback stopped the transfer.
    enum AbortReason {
        case tooLarge
        case consumer(any Error)
    }

    init(request: HTTPRequest, limits: TransferLimits, sink: BodySink) {
        self.request = request
        self.limits = limits
        self.sink = sink
    }

    /// Stops the transfer as soon as possible, from any thread.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        activeMulti.withLock { multi in
            if let multi {
                curl_multi_wakeup(multi.pointer)
            }
        }
    }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// Runs the attempt to its end on the calling (transfer) thread.
    func run(with handles: CurlHandles) -> TransferResult {
        if isCancelled {
            return TransferResult(outcome: .failure(cancellationError, bodyReachedConsumer: false), newConnections: 0)
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        if let refusal = configure(handles, headerList: &headerList) {
            return TransferResult(outcome: .failure(refusal, bodyReachedConsumer: false), newConnections: 0)
        }
        let driven = drive(handles)
        let newConnections = Int(getLong(handles.easy, CURLINFO_NUM_CONNECTS))
        let outcome = outcome(of: driven, handles: handles)
        var redirectURL: String?
        if case .response(let head, _) = outcome, (300...399).contains(head.status) {
            // Absolute, even when the Location header was relative; nil without one.
            redirectURL = getString(handles.easy, CURLINFO_REDIRECT_URL) ?? receivedLocation
        }
        return TransferResult(outcome: outcome, newConnections: newConnections, redirectURL: redirectURL)
    }

    // MARK: - Driving libcurl

    private enum Driven {
        case finished(CURLcode)
        case cancelled
        case multiFailed(CURLMcode)
    }

    /// Runs the easy handle through the thread's multi handle until it is done or cancelled.
    /// `curl_multi_poll` sleeps until there is socket activity, a libcurl timer (the timeouts) or
    /// a `curl_multi_wakeup` from `cancel()`.
    private func drive(_ handles: CurlHandles) -> Driven {
        let multi = handles.multi
        let added = curl_multi_add_handle(multi, handles.easy)
        guard added == CURLM_OK else { return .multiFailed(added) }
        activeMulti.withLock { $0 = MultiHandle(pointer: multi) }
        defer {
            activeMulti.withLock { $0 = nil }
            curl_multi_remove_handle(multi, handles.easy)
        }
        var running: Int32 = 1
        while true {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { return .multiFailed(performed) }
            if running == 0 { break }
            if isCancelled { return .cancelled }
            let polled = curl_multi_poll(multi, nil, 0, 1000, nil)
            guard polled == CURLM_OK else { return .multiFailed(polled) }
            if isCancelled { return .cancelled }
        }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE {
                return .finished(ccurl_multi_message_result(message))
            }
        }
        return .finished(CURLE_FAILED_INIT)
    }

    private func outcome(of driven: Driven, handles: CurlHandles) -> TransferOutcome {
        switch driven {
        case .cancelled:
            return .failure(cancellationError, bodyReachedConsumer: bodyReachedConsumer)
        case .multiFailed(let code):
            let message = String(cString: curl_multi_strerror(code))
            return .failure(netError(.transport, "libcurl failed: \(message)"), bodyReachedConsumer: bodyReachedConsumer)
        case .finished(let code) where code == CURLE_OK:
            let status = Int(getLong(handles.easy, CURLINFO_RESPONSE_CODE))
            switch sink {
            case .collect:
                return .response(HTTPResponseHead(status: status, headers: headers), body: body)
            case .stream:
                let errorBody = (200...299).contains(status) ? [] : body
                return .response(HTTPResponseHead(status: status, headers: headers, errorBody: errorBody), body: [])
            }
        case .finished(let code):
            if case .consumer(let error) = abortReason {
                return .consumerFailed(error)
            }
            return .failure(failure(for: code, handles: handles), bodyReachedConsumer: bodyReachedConsumer)
        }
    }

    var cancellationError: NetError { request.cancellationError }

    /// A NetError about this request.
    func netError(_ kind: NetError.Kind, _ detail: String) -> NetError {
        request.netError(kind, detail)
    }

    // MARK: - Callbacks (transfer thread)

    /// One header line, or the status line that starts a new response (after a redirect or a
    /// 100 Continue), which discards the headers collected so far.
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        let line = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            headers.append(HTTPHeader(name, value))
        }
        return bytes.count
    }

    /// A piece of the body. Returning less than its size makes libcurl stop the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        receivedBytes += chunk.count
        // Counted here too because a body without Content-Length is not limited by libcurl.
        if receivedBytes > limits.maxResponseBytes {
            abortReason = .tooLarge
            return 0
        }
        switch sink {
        case .collect:
            body.append(contentsOf: chunk)
        case .stream(let consumer):
            if (200...299).contains(status) {
                bodyReachedConsumer = true
                do {
                    try consumer.consume(chunk)
                } catch {
                    abortReason = .consumer(error)
                    return 0
                }
            } else if body.count < Self.errorBodyLimit {
                body.append(contentsOf: chunk.prefix(Self.errorBodyLimit - body.count))
            }
        }
        return chunk.count
    }

    /// The Location header of the last response received.
    var receivedLocation: String? {
        headers.last { $0.name.lowercased() == "location" }?.value
    }

    /// Whether our write callback stopped the transfer because the body was too large.
    var abortedAsTooLarge: Bool {
        if case .tooLarge = abortReason { return true }
        return false
    }
}

/// A CURLM pointer that may cross threads: only `curl_multi_wakeup` is called on it from another
/// thread, which libcurl allows.
struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

func getLong(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int {
    var value = 0
    return ccurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
}

func getOffset(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int64 {
    var value: curl_off_t = 0
    return ccurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? Int64(value) : 0
}

func getString(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> String? {
    var value: UnsafeMutablePointer<CChar>?
    guard ccurl_easy_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
