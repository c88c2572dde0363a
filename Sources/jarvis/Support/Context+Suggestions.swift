import JarvisCore
import JarvisRemote

/// "Did you mean …?" for containers, keys and members: asked of the agent only after it said no.
extension Context {
    /// Runs a request about one place; when the agent answers that it does not exist, the
    /// message gains the nearest container, key or member the agent has (``PlaceNames``).
    func suggesting<T>(_ client: JarvisClient, _ place: Wire.Place, _ body: () throws(JarvisError) -> T)
        throws(JarvisError) -> T
    {
        try PlaceNames.suggesting(client, place, body)
    }
}
