/// A value a signal handler reads: the one way Jarvis shares state with a handler, beside
/// ``Locked`` for every other thread.
///
/// A signal handler may only do async-signal-safe work: no lock (the thread it interrupted may
/// hold it), no allocation, no reference counting, nothing a lazy initialisation could start.
/// The cell keeps a `BitwiseCopyable` value at one address allocated when it is made and never
/// freed, and reads and writes it with plain loads and stores, so a handler that reads it does
/// none of these. Make each cell a `static let`, touched once before the handler is installed
/// (so its initialisation is over by then).
///
/// What keeps it correct, which the compiler cannot check:
/// - one thread writes (the one that installs the handlers); handlers only read;
/// - the writer writes what a handler needs before it sets the flag (a cell of its own) that
///   lets the handler use it, and clears that flag before it writes the values again: a
///   handler that runs while values are half written finds the flag down and uses none.
package struct SignalSafeCell<Value: BitwiseCopyable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value>

    /// A cell holding `value`, for the life of the process.
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    /// The value: a plain load, or a plain store (on the writing thread only).
    package var value: Value {
        get { storage.pointee }
        nonmutating set { storage.pointee = newValue }
    }
}
