import Dispatch
import Foundation

/// Runs `count` independent jobs on `jobs` threads and returns their results
/// in order, whatever order they finish in.
enum ParallelMap {
    static func run<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
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

    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var results: [T?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func claim() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }
        func store(_ index: Int, _ value: T) {
            lock.lock(); defer { lock.unlock() }
            results[index] = value
        }
        func values() -> [T] { results.map { $0! } }
    }
}
