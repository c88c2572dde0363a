import Dispatch

/// A dispatch source that may be kept in locked, `Sendable` state.
///
/// `@unchecked Sendable`: libdispatch makes `resume`, `cancel` and handler changes safe from
/// any thread, but corelibs-libdispatch (Linux) does not mark its source types `Sendable`.
struct DispatchSourceHandle: @unchecked Sendable {
    /// The source.
    let source: any DispatchSourceProtocol

    /// Wraps `source`.
    init(_ source: any DispatchSourceProtocol) {
        self.source = source
    }
}
