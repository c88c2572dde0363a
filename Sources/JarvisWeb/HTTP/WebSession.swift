import JarvisCore
import JarvisTransport

/// One connection of the page's server: hands its request to the ``WebRouter`` on the loop
/// thread, which answers at once only what costs nothing and runs the rest on a page's lane.
final class WebSession: LineSession {
    private let router: WebRouter?

    /// - Parameter router: nil while the server is still starting (the request gets a 503).
    init(router: WebRouter?) {
        self.router = router
    }

    func received(line request: [UInt8], on connection: LineConnection, checkpoint: ChangeCheckpoint) {
        // Read whole: it no longer waits among the connections whose request is arriving.
        connection.authenticated()
        guard let router else {
            return WebRouter.reply(.refusal(503, "the server is starting; try again"), on: connection)
        }
        router.receive(request, on: connection)
    }

    func lineTooLong(on connection: LineConnection) -> [UInt8]? { nil }

    func requestTooLarge(_ overflow: HTTPFramer.Overflow, on connection: LineConnection) -> [UInt8]? {
        HTTPResponse.refusal(overflow.status, overflow.reason).serialized()
    }

    func closed(_ connection: LineConnection) {
        router?.closed(connection)
    }
}
