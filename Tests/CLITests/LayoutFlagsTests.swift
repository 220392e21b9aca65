import Foundation
import MihirakiTestSupport
import Testing
import Mihiraki
import MihirakiCodecs

/// The command line's layout flags come from the library's option table:
/// every entry is a flag of `render` and `plan`, and bad values are named
/// the table's way.
@Suite("Command line: layout flags from the option table", .tags(.process), .timeLimit(.minutes(10)))
struct LayoutFlagsTests {
    static func longNames(_ command: String) throws -> Set<String> {
        let run = try mihiraki([command, "--experimental-dump-help"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let arguments = (json["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
        return Set(arguments.flatMap { ($0["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" } }
            .compactMap { $0["name"] as? String })
    }

    /// Help texts listed formats by hand, so the next format needed a hunt.
    @Test("Help names every registered output format, page format and kind of book file")
    func helpFromRegistries() throws {
        let render = try mihiraki(["help", "render"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in SpreadFormat.allCases {
            #expect(render.contains(format.name) && render.contains("." + format.fileExtension), "\(format)")
        }
        for kind in BookKind.all { #expect(render.contains("." + kind.extensions[0]), "\(kind.name)") }
        let compare = try mihiraki(["help", "compare"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in ImageFormat.readable { #expect(compare.contains(format.name), "\(format.name)") }
    }

    @Test("render and plan have a flag for every entry of the table", arguments: ["render", "plan"])
    func everyOption(command: String) throws {
        let names = try Self.longNames(command)
        let missing = LayoutOptions.tableNames.filter { !names.contains($0) }
        #expect(missing.isEmpty, "\(command) lacks \(missing)")
    }

    @Test("A bad value is one usage line naming the flag and what it takes; values in any letter case")
    func badValues() throws {
        let sample = Fixtures.sampleBook.path
        let bad = try mihiraki(["plan", sample, "--direction", "sideways"])
        #expect(bad.status == 2)
        #expect(bad.stderr == "mihiraki: bad value for --direction: sideways (ltr, rtl or auto)\n")
        let solo = try mihiraki(["plan", sample, "--solo", "0"])
        #expect(solo.status == 2 && solo.stderr.contains("--solo"))
        let upper = try mihiraki(["plan", sample, "--json", "--direction", "RTL", "--format", "JPG"])
        #expect(upper.status == 0)
        #expect(upper.stdout.contains("\"direction\": \"rtl\"") && upper.stdout.contains("spread-001.jpg"))
    }
}
