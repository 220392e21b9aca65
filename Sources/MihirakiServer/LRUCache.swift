import Foundation

/// A map bounded by the total cost of its values (bytes, or a count),
/// dropping the least recently used first. Safe to share between threads.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    let capacity: Int
    private let lock = NSLock()
    private var nodes: [Key: Node] = [:]
    private var oldest: Node?
    private weak var newest: Node?
    private var cost = 0

    init(capacity: Int) { self.capacity = capacity }

    /// The value, marked as just used.
    func value(for key: Key) -> Value? {
        lock.lock(); defer { lock.unlock() }
        guard let node = nodes[key] else { return nil }
        moveToNewest(node)
        return node.value
    }

    /// Stores `value`; a value costing more than the whole capacity is not kept.
    func insert(_ value: Value, for key: Key, cost: Int) {
        lock.lock(); defer { lock.unlock() }
        if let node = nodes[key] {
            self.cost += cost - node.cost
            node.value = value
            node.cost = cost
            moveToNewest(node)
        } else if cost <= capacity {
            let node = Node(key: key, value: value, cost: cost)
            nodes[key] = node
            append(node)
            self.cost += cost
        }
        while self.cost > capacity, let victim = oldest { remove(victim) }
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return nodes.count }

    /// The cost of everything kept.
    var totalCost: Int { lock.lock(); defer { lock.unlock() }; return cost }

    private func append(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private func unlink(_ node: Node) {
        if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { newer.older = node.older } else { newest = node.older }
        node.newer = nil
        node.older = nil
    }

    private func moveToNewest(_ node: Node) {
        guard newest !== node else { return }
        unlink(node)
        append(node)
    }

    private func remove(_ node: Node) {
        unlink(node)
        nodes[node.key] = nil
        cost -= node.cost
    }
}
