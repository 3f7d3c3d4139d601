import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Refuses, before Hummingbird sees them, the requests only their raw HTTP/1 head can tell:
///
/// - a `Transfer-Encoding` other than `chunked` (`xchunked`, `gzip, chunked`): 501 Not
///   Implemented, as RFC 9112 section 6.1 asks. The body's length is then unknown, so what
///   follows on the connection cannot be told from it (request smuggling): it is closed.
/// - an absolute-form request target (`GET http://other.example/ HTTP/1.1`) for a host other
///   than the one the request's `Host` names, or, without a `Host`, other than this server by
///   a loopback name: 421 Misdirected Request. A server must take the host from such a target
///   (RFC 9112 section 3.2.2); Hummingbird's conversion to `HTTPRequest` keeps only its path,
///   so the host would otherwise never be checked, and ``LoopbackHostCheck`` would pass it.
///
/// It sits between NIO's HTTP/1 decoder and Hummingbird's codec, where the request target is
/// still as it came. A refusal waits for the answers to earlier pipelined requests, is sent
/// with `Connection: close`, and ends the connection; nothing after the refused head is read.
final class RawRequestCheck: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A refusal: its status and a line that says why.
    struct Refusal: Equatable {
        let status: HTTPResponseStatus
        let message: String
    }

    /// Requests passed on whose answer has not ended yet.
    private var answering = 0
    /// Set once a head is refused: everything after it is dropped.
    private var refused = false
    /// A refusal waiting for the answers to requests before it.
    private var waiting: (Refusal, HTTPVersion)?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let refusal = Self.refusal(for: head, localPort: context.channel.localAddress?.port) {
                refused = true
                if answering == 0 { send(refusal, version: head.version, context: context) } else { waiting = (refusal, head.version) }
                return
            }
            answering += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        answering -= 1
        if answering == 0, let (refusal, version) = waiting {
            waiting = nil
            send(refusal, version: version, context: context)
        }
    }

    private func send(_ refusal: Refusal, version: HTTPVersion, context: ChannelHandlerContext) {
        let body = context.channel.allocator.buffer(string: refusal.message + "\n")
        let headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
                                   ("Connection", "close"), ("Cache-Control", "no-store")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Why `head` is refused, if it is. `localPort` is the port the server listens on.
    static func refusal(for head: HTTPRequestHead, localPort: Int?) -> Refusal? {
        let codings = head.headers["Transfer-Encoding"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return Refusal(status: .notImplemented, message: "walletwatch does not implement the transfer coding '\(unknown)'; send the body with Content-Length or Transfer-Encoding: chunked")
        }
        if codings.count > 1 {
            return Refusal(status: .badRequest, message: "Transfer-Encoding names chunked more than once")
        }
        guard let authority = absoluteFormAuthority(head.uri) else { return nil }
        let hosts = head.headers["Host"]
        let ownHost = hosts.count == 1 ? hosts[0].lowercased() == authority.lowercased()
            : hosts.isEmpty && LoopbackHostCheck.isLoopback(host: authority, listenPort: localPort)
        guard ownHost else {
            return Refusal(status: .misdirectedRequest, message: "the request names the host '\(authority)', which is not this server (\(hosts.first.map { "Host: \($0)" } ?? "no Host header")); walletwatch is no proxy")
        }
        return nil
    }

    /// The authority of an absolute-form request target (`http://host:port/path`), without any
    /// user information; nil for the usual origin form (`/path`) and for `*`.
    static func absoluteFormAuthority(_ target: String) -> String? {
        guard let schemeEnd = target.range(of: "://"), !target.hasPrefix("/") else { return nil }
        let scheme = target[..<schemeEnd.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        let rest = target[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority)
    }
}

/// Hummingbird's HTTP/1 channel with ``RawRequestCheck`` in front of its codec.
struct CheckedHTTP1Channel: ServerChildChannel {
    let inner: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // The codec that turns NIO's request parts into Hummingbird's: the check goes before it.
            let codec = try channel.pipeline.syncOperations.context(handlerType: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(RawRequestCheck(), position: .before(codec.handler))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
