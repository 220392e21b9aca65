import Dispatch
import Foundation
import Synchronization

/// Runs `count` independent jobs on `jobs` threads and returns their results
/// in order, whatever order they finish in.
package enum ParallelMap {
    package static func run<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Slots<T>(count: count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            DispatchQueue.global().async(group: group) {
                while let index = slots.claim() { slots.store(index, body(index)) }
            }
        }
        group.wait()
        return slots.values()
    }

    /// The next job to claim and the results so far.
    private final class Slots<T: Sendable>: Sendable {
        private let state: Mutex<(next: Int, results: [T?])>
        init(count: Int) { state = Mutex((0, Array(repeating: nil, count: count))) }
        func claim() -> Int? {
            state.withLock { state in
                guard state.next < state.results.count else { return nil }
                state.next += 1
                return state.next - 1
            }
        }
        func store(_ index: Int, _ value: T) { state.withLock { $0.results[index] = value } }
        func values() -> [T] { state.withLock { $0.results.map { $0! } } }
    }
}
