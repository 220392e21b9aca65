import Synchronization

/// A map bounded by the total cost of its values (bytes, or a count),
/// dropping the least recently used first. Safe to share between threads:
/// the nodes and the recency list live inside one lock.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: Key, value: Value, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    /// The nodes by key and the recency list, oldest first.
    private struct List {
        var nodes: [Key: Node] = [:]
        var oldest: Node?
        weak var newest: Node?
        var cost = 0

        mutating func append(_ node: Node) {
            node.older = newest
            node.newer = nil
            newest?.newer = node
            newest = node
            if oldest == nil { oldest = node }
        }

        mutating func unlink(_ node: Node) {
            if let older = node.older { older.newer = node.newer } else { oldest = node.newer }
            if let newer = node.newer { newer.older = node.older } else { newest = node.older }
            node.newer = nil
            node.older = nil
        }

        mutating func moveToNewest(_ node: Node) {
            guard newest !== node else { return }
            unlink(node)
            append(node)
        }

        mutating func remove(_ node: Node) {
            unlink(node)
            nodes[node.key] = nil
            cost -= node.cost
        }
    }

    let capacity: Int
    private let list = Mutex(List())

    init(capacity: Int) { self.capacity = capacity }

    /// The value, marked as just used.
    func value(for key: Key) -> Value? {
        list.withLock { list -> Value? in
            guard let node = list.nodes[key] else { return nil }
            list.moveToNewest(node)
            return node.value
        }
    }

    /// Stores `value`; a value costing more than the whole capacity is not kept.
    func insert(_ value: Value, for key: Key, cost: Int) {
        let capacity = capacity
        list.withLock { list in
            if let node = list.nodes[key] {
                list.cost += cost - node.cost
                node.value = value
                node.cost = cost
                list.moveToNewest(node)
            } else if cost <= capacity {
                let node = Node(key: key, value: value, cost: cost)
                list.nodes[key] = node
                list.append(node)
                list.cost += cost
            }
            while list.cost > capacity, let victim = list.oldest { list.remove(victim) }
        }
    }

    var count: Int { list.withLock { $0.nodes.count } }

    /// The cost of everything kept.
    var totalCost: Int { list.withLock { $0.cost } }
}
