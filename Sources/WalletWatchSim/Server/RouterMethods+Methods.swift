import Hummingbird

extension RouterMethods {
    /// Routes each of `methods` on `path` to `handler`.
    @discardableResult
    func on(
        _ path: RouterPath, methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options],
        use handler: @Sendable @escaping (Request, Context) async throws -> Response
    ) -> Self {
        for method in methods { on(path, method: method, use: handler) }
        return self
    }
}
