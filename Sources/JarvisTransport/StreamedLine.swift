import Dispatch
import JarvisCore

/// A line a ``LineProducer`` makes on its connection's ``WorkLane`` while the server's loop
/// writes the pieces already made: the loop moves bytes only, and whatever making the next
/// piece costs (opening a container, parsing a file, a keyring call) waits on a pool thread.
///
/// At most one piece is made ahead of what the loop took, so a slow reader slows the
/// producer. Each step (one call of ``LineProducer/produce(into:size:)``) has its own timeout:
/// a step that has not returned by then is left behind on its thread (``WorkLane/abandon(_:)``)
/// and the line is ended with ``LineProducer/rest(afterStepTimedOut:)``, so the client gets one
/// complete line and its connection goes on with its next request. Thread-safe.
package final class StreamedLine: Sendable {
    private struct State {
        /// The producer as it was before the step in flight; nil once the line is complete.
        var producer: (any LineProducer)?
        /// Made and not yet taken by the loop.
        var ready: [UInt8] = []
        var complete = false
        /// The step in flight: its serial number, and its lane job once submitted.
        var step: (serial: UInt64, job: UInt64?)?
        var serial: UInt64 = 0
    }

    private let state: Locked<State>
    private let lane: WorkLane
    private let group: String?
    private let stepTimeout: Duration
    private let chunkSize: Int
    /// Tells the connection's loop that a piece is ready.
    private let wake: @Sendable () -> Void

    /// - Parameters:
    ///   - lane: the connection's lane: steps run in order with its other jobs.
    ///   - group: the storage the steps may wait on (see ``WorkLane/submit(group:_:)``).
    ///   - stepTimeout: how long one step may take before the line is ended without it.
    ///   - wake: asks the loop to take what is ready; called from any thread.
    init(
        producer: some LineProducer, lane: WorkLane, group: String?, stepTimeout: Duration, chunkSize: Int,
        wake: @escaping @Sendable () -> Void
    ) {
        state = Locked(State(producer: producer))
        self.lane = lane
        self.group = group
        self.stepTimeout = stepTimeout
        self.chunkSize = chunkSize
        self.wake = wake
    }

    /// What the loop may write now, and whether the line is complete once it is written; the
    /// next piece is asked for at once, so it is made while these bytes are written.
    func take() -> (bytes: [UInt8], complete: Bool) {
        let taken = state.withLock { state -> ([UInt8], Bool) in
            var bytes: [UInt8] = []
            swap(&bytes, &state.ready)
            return (bytes, state.complete)
        }
        if !taken.1 { demand() }
        return taken
    }

    /// Whether ``take()`` has bytes or the end for the loop now.
    var hasOutput: Bool {
        state.withLock { !$0.ready.isEmpty || $0.complete }
    }

    /// Starts the next step unless one is in flight, a piece waits, or the line is complete.
    private func demand() {
        let next = state.withLock { state -> (serial: UInt64, group: String?)? in
            guard !state.complete, state.step == nil, state.ready.isEmpty, let producer = state.producer else {
                return nil
            }
            state.serial &+= 1
            state.step = (state.serial, nil)
            return (state.serial, producer.nextGroup ?? group)
        }
        guard let (serial, stepGroup) = next else { return }
        let job = lane.submit(group: stepGroup) { [self] in step(serial) }
        state.withLock { state in
            if state.step?.serial == serial { state.step?.job = job }
        }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(clamping: stepTimeout.wholeNanoseconds(rounded: .up)))
        ) {
            [weak self] in self?.timedOut(serial)
        }
    }

    /// One step, on a pool thread.
    private func step(_ serial: UInt64) {
        guard var producer = state.withLock({ $0.step?.serial == serial ? $0.producer : nil }) else { return }
        var piece: [UInt8] = []
        piece.reserveCapacity(chunkSize + 1024)
        let complete = producer.produce(into: &piece, size: chunkSize)
        if complete { piece.append(0x0A) }
        let kept = state.withLock { state -> Bool in
            // Timed out or cancelled meanwhile: the line was ended without this piece.
            guard state.step?.serial == serial else { return false }
            state.step = nil
            state.ready.append(contentsOf: piece)
            state.producer = complete ? nil : producer
            state.complete = complete
            return true
        }
        if kept { wake() }
    }

    /// Step `serial` took too long: the line goes on without it or ends, as the producer says
    /// from its state before that step, and the step is left behind.
    private func timedOut(_ serial: UInt64) {
        let job = state.withLock { state -> UInt64?? in
            guard let step = state.step, step.serial == serial else { return nil }
            state.step = nil
            if let skipped = state.producer?.skipping(afterStepTimedOut: stepTimeout) {
                state.ready.append(contentsOf: skipped.bytes)
                state.producer = skipped.next
                if skipped.next == nil {
                    state.ready.append(0x0A)
                    state.complete = true
                }
                return .some(step.job)
            }
            if let producer = state.producer {
                state.ready.append(contentsOf: producer.rest(afterStepTimedOut: stepTimeout))
                state.ready.append(0x0A)
            }
            state.producer = nil
            state.complete = true
            return .some(step.job)
        }
        guard let job else { return }
        if let number = job { lane.abandon(number) }
        wake()
        // A line that goes on starts its next step now, whether or not the loop takes bytes.
        demand()
    }

    /// The connection ended: nothing more is made; a step not yet started never runs.
    func cancel() {
        let job = state.withLock { state -> UInt64? in
            defer {
                state.step = nil
                state.producer = nil
                state.ready = []
                state.complete = true
            }
            return state.step?.job
        }
        if let job { lane.abandon(job) }
    }
}
