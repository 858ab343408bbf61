import SecIO

#if canImport(Glibc)
import Glibc
#endif

/// Maps a function over a sequence on several threads and hands the results over in the
/// sequence's order: `hash`, `hash --check` and `hmac` read many files at once, one thread per
/// processor, and still print one line per file in the order the files were given.
///
/// The calling thread reads the sequence, queues its elements for the worker threads and delivers
/// each result as soon as it and every earlier one are done. At most `window` elements are read
/// and not yet delivered, so memory stays bounded however long the sequence is (a directory walk
/// is read as it goes). Worker threads are started only once two elements are queued for them, and
/// never for one worker: a single file, or standard input, is mapped on the calling thread alone.
enum OrderedParallelMap {
    /// Elements read ahead of the one delivered next: enough to keep every worker busy behind one
    /// large file, and small (a path and a digest each).
    static let window = 256

    /// Calls `deliver` with each element of `elements` and `transform` of it, in the order of
    /// `elements`. `transform` runs on one thread per available processor. Elements for which
    /// `onCallingThread` is true are transformed on the calling thread in their turn, after every
    /// earlier element was delivered: those that must be read once and in order (standard input),
    /// and those with nothing to compute. When `deliver` throws, the elements not started are
    /// dropped and the error is thrown once the workers have finished what they started.
    static func forEach<Element: Sendable, Output: Sendable, Failure: Error>(
        in elements: some Sequence<Element>,
        onCallingThread: (Element) -> Bool,
        transform: @escaping @Sendable (Element) -> Output,
        deliver: (Element, Output) throws(Failure) -> Void
    ) throws(Failure) {
        let queue = WorkQueue<Element, Output>(window: window, transform: transform)
        var threads: [pthread_t] = []
        // Counted when there are two elements for the workers: a single input costs no look-up.
        var workers: Int?
        var canStartThreads = true
        defer {
            queue.stop()
            for thread in threads { pthread_join(thread, nil) }
        }
        var iterator = elements.makeIterator()
        var isExhausted = false
        var pending = 0
        var queuedForWorkers = 0
        while true {
            while !isExhausted, pending < window {
                guard let element = iterator.next() else {
                    isExhausted = true
                    break
                }
                let isForWorkers = !onCallingThread(element)
                queue.append(element, forWorkers: isForWorkers)
                pending += 1
                if isForWorkers { queuedForWorkers += 1 }
                guard canStartThreads, queuedForWorkers >= 2 else { continue }
                let available = workers ?? AvailableProcessors.count
                workers = available
                canStartThreads = available >= 2
                while canStartThreads, threads.count < min(available, queuedForWorkers) {
                    if let thread = try? NativeThread.start({ queue.work() }) {
                        threads.append(thread)
                    } else {
                        // No more threads now (a process or memory limit): the ones running do the
                        // work, or else the calling thread alone.
                        canStartThreads = false
                    }
                }
            }
            guard pending > 0 else { return }
            let (element, output) = queue.takeNext(hasWorkers: !threads.isEmpty)
            pending -= 1
            try deliver(element, output)
        }
    }
}

/// The elements between the calling thread of `OrderedParallelMap` and its workers: a ring of
/// `window` slots, each holding an element from when it is read until its result is delivered.
private final class WorkQueue<Element: Sendable, Output: Sendable>: @unchecked Sendable {
    private enum Slot {
        /// For a worker to transform.
        case queued(Element)
        /// For the calling thread to transform in its turn.
        case onCallingThread(Element)
        case running
        case done(Element, Output)
        case delivered
    }

    private let window: Int
    private let transform: @Sendable (Element) -> Output
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when an element is queued for the workers, or when they must stop.
    private let workAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signalled when the element to deliver next is done.
    private let resultReady = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    // Used with `mutex` held only. Element `n` is in slot `n % window`; the ring grows to `window`
    // slots as elements arrive, so a short sequence allocates only what it uses.
    private var slots: [Slot] = []
    /// Elements appended so far.
    private var appended = 0
    /// The next element a worker looks at: every earlier one is taken, or not for the workers.
    private var claimed = 0
    /// Elements handed to the calling thread so far.
    private var delivered = 0
    private var isStopped = false

    init(window: Int, transform: @escaping @Sendable (Element) -> Output) {
        self.window = window
        self.transform = transform
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
        pthread_cond_init(resultReady, nil)
    }

    deinit {
        pthread_cond_destroy(resultReady)
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        resultReady.deallocate()
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Adds the next element of the sequence; the caller keeps at most `window` undelivered ones.
    func append(_ element: Element, forWorkers: Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let slot: Slot = forWorkers ? .queued(element) : .onCallingThread(element)
        if slots.count < window {
            slots.append(slot)
        } else {
            slots[appended % window] = slot
        }
        appended += 1
        if forWorkers { pthread_cond_signal(workAvailable) }
    }

    /// The next element in order with its result, waiting for a worker to finish it. Elements for
    /// the calling thread, and with no workers every element, are transformed here.
    func takeNext(hasWorkers: Bool) -> (Element, Output) {
        pthread_mutex_lock(mutex)
        let index = delivered % window
        while true {
            switch slots[index] {
            case .done(let element, let output):
                finishDelivery(index)
                return (element, output)
            case .onCallingThread(let element):
                finishDelivery(index)
                return (element, transform(element))
            case .queued(let element) where !hasWorkers:
                finishDelivery(index)
                return (element, transform(element))
            case .queued, .running, .delivered:
                pthread_cond_wait(resultReady, mutex)
            }
        }
    }

    /// Marks slot `index` delivered and lets go of the lock `takeNext` took.
    private func finishDelivery(_ index: Int) {
        slots[index] = .delivered
        delivered += 1
        pthread_mutex_unlock(mutex)
    }

    /// A worker's loop: transforms the queued elements in order until `stop`.
    func work() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isStopped {
            // Elements the calling thread took itself before this worker started are behind it.
            claimed = max(claimed, delivered)
            guard claimed < appended else {
                pthread_cond_wait(workAvailable, mutex)
                continue
            }
            let position = claimed
            let index = position % window
            claimed += 1
            guard case .queued(let element) = slots[index] else { continue }
            slots[index] = .running
            pthread_mutex_unlock(mutex)
            let output = transform(element)
            pthread_mutex_lock(mutex)
            slots[index] = .done(element, output)
            if position == delivered { pthread_cond_signal(resultReady) }
        }
    }

    /// Ends the workers' loops; what they are transforming now is finished first.
    func stop() {
        pthread_mutex_lock(mutex)
        isStopped = true
        pthread_cond_broadcast(workAvailable)
        pthread_mutex_unlock(mutex)
    }
}
