/// A scanner whose keyed read tells whether a key is there even in a container that does not
/// exist yet (a keyring, where any name can hold items and a write makes the rest). The write
/// transaction asks it for the container with ``writeContainer(named:)``, which need not look
/// whether the container exists; ``PreferenceScanner/container(named:)`` stays exact for the
/// requests that name only a container and must know which scanner has it.
package protocol PresumedContainers: PreferenceScanner {
    /// The container a write to `name` goes to, as ``PreferenceScanner/container(named:)``
    /// answers it, except that ``ContainerInfo/exists`` may be true for a container a write
    /// would create: the hub then reads the key, finds nothing, and writes exactly as it would
    /// into a new container (a set creates it; a delete or an expected revision finds no key).
    func writeContainer(named name: String) throws -> ContainerInfo?
}
