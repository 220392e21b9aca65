import Foundation
import MihirakiTestSupport
import Testing

/// What the program sets up for itself: glibc's allocator. Not run under
/// AddressSanitizer (scripts/test-hardened), whose own allocator replaces
/// glibc's and maps large blocks its own way; scripts/test runs it.
@Suite("Command line: the allocator", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct AllocatorCLITests {
    /// The program asks glibc to keep freed spread-sized buffers (canvas,
    /// filtered rows, decoded pages) for the next spread. Without that, each
    /// one is mapped fresh and handed back, and every spread pays page faults
    /// and zeroing for tens of megabytes: 39,000 faults on the benchmark's
    /// colour book of 7 spreads, against 14,000.
    @Test("Spread-sized buffers are kept for the next spread, never handed back to the system between spreads")
    func buffersKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for page in 1...6 {  // colour pages, so each 2048×1536 canvas is 9.4 MB
            try folder.write("book/p\(page).png", try Fixtures.solidPNG(width: 771, height: 1200, [200, UInt8(page * 30), 40]))
        }
        let (run, lines) = try mihirakiTraced(["render", folder.path + "/book", "-o", folder.path + "/out", "--jobs", "2",
                                                "--quiet"], calls: "mmap,madvise", trace: folder.path + "/trace")
        #expect(run.status == 0, "\(run.stderr)")
        /// The length argument of a traced call: mmap(NULL, LENGTH, …) or madvise(ADDRESS, LENGTH, …).
        func length(_ line: Substring) -> Int {
            Int(line.split(separator: ",").dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        }
        // A buffer mapped on its own is unmapped when freed; heap memory given back is madvise'd.
        // (Thread stacks and the allocator's reservations are mapped PROT_NONE.)
        let mapped = lines.filter { $0.contains("mmap(NULL") && $0.contains("PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS,") }
        let handedBack = lines.filter { $0.contains("MADV_DONTNEED") }
        #expect(mapped.filter { length($0) > 9_000_000 }.isEmpty, "\(mapped)")
        #expect(handedBack.filter { length($0) > 9_000_000 }.isEmpty, "\(handedBack)")
        #expect(lines.contains { $0.contains("mmap(") })  // the trace did see the calls
    }
}
