import Foundation
import MihirakiTestSupport
import Testing
import Mihiraki
import MihirakiCodecs
@testable import mihiraki

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
        let render = RenderCommand.helpMessage(columns: 1000).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in SpreadFormat.allCases {
            #expect(render.contains(format.name) && render.contains("." + format.fileExtension), "\(format)")
        }
        for kind in BookKind.all { #expect(render.contains("." + kind.extensions[0]), "\(kind.name)") }
        let compare = CompareCommand.helpMessage(columns: 1000).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in ImageFormat.readable { #expect(compare.contains(format.name), "\(format.name)") }
    }

    @Test("render and plan have a flag for every entry of the table", arguments: ["render", "plan"])
    func everyOption(command: String) throws {
        let names = try Self.longNames(command)
        let missing = LayoutOptions.tableNames.filter { !names.contains($0) }
        #expect(missing.isEmpty, "\(command) lacks \(missing)")
    }

    /// In the process: the command's own parsing and the library's options,
    /// as `mihiraki plan` runs them, without starting the program.
    @Test("A bad value is a usage error naming the flag and what it takes; values in any letter case")
    func badValues() throws {
        let sample = Fixtures.sampleBook.path
        func options(_ arguments: [String]) throws -> LayoutOptions {
            try PlanCommand.parse([sample] + arguments).layout.layoutOptions()
        }
        #expect { try options(["--direction", "sideways"]) } throws: {
            ($0 as? MihirakiError)?.description == "bad value for --direction: sideways (ltr, rtl or auto)"
                && ($0 as? MihirakiError)?.code == .usage
        }
        #expect { try options(["--solo", "0"]) } throws: { "\($0)".contains("--solo") }
        let upper = try options(["--direction", "RTL", "--format", "JPG"])
        #expect(upper.direction == .rtl && upper.encoding.format == .jpeg)
    }

    /// `--split-wide` takes a value only when the next word is one of its
    /// own; alone it means `auto`, before a path, another flag or the end.
    @Test("--split-wide alone means auto; it takes auto, center or off as its value; --crop-limit is checked")
    func optionalValue() throws {
        let sample = Fixtures.sampleBook.path
        func options(_ arguments: [String]) throws -> LayoutOptions {
            try PlanCommand.parse(LayoutFlags.withOptionalValues(arguments)).layout.layoutOptions()
        }
        #expect(try options(["--split-wide", sample]).splitWide == .auto)
        #expect(try options([sample, "--split-wide"]).splitWide == .auto)
        #expect(try options([sample, "--split-wide", "--crop-borders"]).splitWide == .auto)
        #expect(try options([sample, "--split-wide", "Center"]).splitWide == .center)
        #expect(try options([sample, "--split-wide=center"]).splitWide == .center)
        #expect(try options([sample, "--split-wide", "off"]).splitWide == nil)
        #expect(try options([sample]).splitWide == nil)
        let crop = try options([sample, "--crop-borders", "--crop-limit", "4"])
        #expect(crop.cropBorders && crop.cropLimit == 4)
        #expect { try options([sample, "--crop-limit", "50"]) } throws: {
            ($0 as? MihirakiError)?.description == "bad value for --crop-limit: 50 (a whole number of percent from 0 to 49)"
        }
        // After `--`, words are paths, never flags.
        #expect(LayoutFlags.withOptionalValues(["--", "--split-wide"]) == ["--", "--split-wide"])
    }

    /// The program itself: a usage error is exit 2 and one line.
    @Test("Through the program: a bad value exits 2 with one line")
    func badValueExit() throws {
        let bad = try mihiraki(["plan", Fixtures.sampleBook.path, "--direction", "sideways"])
        #expect(bad.status == 2 && bad.stderr == "mihiraki: bad value for --direction: sideways (ltr, rtl or auto)\n")
    }
}
