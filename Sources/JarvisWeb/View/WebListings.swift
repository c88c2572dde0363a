import JarvisCore
import JarvisInspector
import JarvisRemote

/// The listings of the agents pages are open on, one per agent: a second page on an agent
/// shares the first one's session and tables. A listing closes when its last page lets go;
/// one whose agent went away is replaced by the first page that finds the agent again.
///
/// Thread-safe. A page that needs a listing being loaded waits for that load (the entry's
/// lock, held by pages' lanes only, never by the server's loop) rather than load it again.
final class WebListings: Sendable {
    /// An agent's listing slot: its lock is held while the listing loads.
    private final class Entry: Sendable {
        let listing = Locked<WebListing?>(nil)
    }

    private let entries = Locked<[Endpoint: Entry]>([:])

    init() {}

    /// The listing of the agent at `endpoint`, loaded now if no page has it (or its agent
    /// went away); the caller ``release(_:)``s it.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses.
    func listing(for endpoint: Endpoint, token: String?) throws(JarvisError) -> WebListing {
        let entry = entries.withLock { entries in
            if let entry = entries[endpoint] { return entry }
            let entry = Entry()
            entries[endpoint] = entry
            return entry
        }
        let listing = try entry.listing.withLock { (shared: inout WebListing?) throws(JarvisError) -> WebListing in
            if let shared, !shared.session.state.isGone {
                shared.users.withLock { $0 += 1 }
                return shared
            }
            let source = try RemoteSource(endpoint: endpoint, token: token, clientName: "jarvis-web")
            let session = InspectorSession(source: source)
            // Subscribe before loading, so no change can fall between the two.
            session.startLive()
            do throws(JarvisError) {
                try session.load()
            } catch {
                session.close()
                throw error
            }
            let fresh = WebListing(endpoint: endpoint, session: session)
            fresh.users.withLock { $0 += 1 }
            shared = fresh
            return fresh
        }
        return listing
    }

    /// A page no longer uses `listing`; the last one closes its session.
    func release(_ listing: WebListing) {
        // Counted under the agent's slot, so a page taking the listing meanwhile never gets a closed one.
        let entry = entries.withLock { $0[listing.endpoint] }
        let last = entry?.listing.withLock { shared -> Bool in
            let last = listing.users.withLock { users -> Bool in
                users -= 1
                return users <= 0
            }
            if last, shared === listing { shared = nil }
            return last
        }
        if last ?? true { listing.session.close() }
    }
}
