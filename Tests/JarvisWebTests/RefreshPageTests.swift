import Foundation
import JarvisCore
import Testing

@testable import JarvisWeb

/// The launch file and the answer to the one-time secret are the one refresh page.
@Suite struct RefreshPageTests {
    @Test func theLaunchFileAndTheExchangeSendTheBrowserOnWithTheSamePage() throws {
        let address = "http://127.0.0.1:4000/0123abcd/?k=00ff"
        let page = RefreshPage.html(to: address)
        #expect(page.contains(#"<meta http-equiv="refresh" content="0;url=\#(address)">"#))
        #expect(page.contains(#"<a href="\#(address)">"#))
        #expect(page.contains(#"<link rel="icon" href="data:,">"#))

        let exchange = HTTPResponse.exchange(cookie: "jarvis_web=c", next: address)
        #expect(exchange.body == Array(page.utf8))

        let name = "jv-refresh-\(UUID().uuidString.prefix(8))"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try WebLaunchFile.write(address: address, environment: ["TMPDIR": folder.path])
        defer { file.remove() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == Data(page.utf8))
    }
}
