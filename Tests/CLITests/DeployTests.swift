import Foundation
import MihirakiTestSupport
import Testing

/// The recipes in deploy/, checked as far as a machine without a container
/// runtime or a cluster allows: the systemd unit verifies and its command
/// serves; the Kubernetes objects probe /healthz, are scraped and mount the
/// library read-only; the container holds every library the binary links;
/// the signing examples sign as `mihiraki sign` does.
@Suite("Deployment recipes", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct DeployTests {
    static let deploy = Fixtures.packageRoot.path + "/deploy/"

    /// `mihiraki serve` with a recipe's options, on a free loopback port over
    /// a test library: /healthz answers, and SIGTERM ends it with 0.
    func serves(_ options: [String]) throws {
        let library = try ServedLibrary()
        defer { library.remove() }
        var rest: [String] = [], skip = false
        for (index, option) in options.enumerated() {
            if skip { skip = false; continue }
            if option == "--port" || option == "--host" { skip = true; continue }
            if index == 0 && !option.hasPrefix("-") { continue }  // the library, replaced by the test's
            rest.append(option)
        }
        let server = try RunningServer(root: library.root, rest)
        let health = try httpGet(server, "/healthz")
        #expect(health.status == 200, "\(options): \(server.stderr)")
        #expect(server.stop() == 0)
    }

    @Test("The systemd unit passes systemd-analyze verify, stops the server alone (its workers finish their renders), and its command serves")
    func systemdUnit() throws {
        let unit = try String(contentsOfFile: Self.deploy + "mihiraki.service", encoding: .utf8)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("mihiraki.service", Array(unit.replacingOccurrences(of: "/usr/local/bin/mihiraki",
                                                                             with: try mihirakiPath()).utf8))
        let verified = try runTool("/usr/bin/env", ["systemd-analyze", "verify", folder.path + "/mihiraki.service"])
        #expect(verified.status == 0 && verified.stderr.isEmpty && verified.stdout.isEmpty,
                "\(verified.stdout)\(verified.stderr)")
        // SIGTERM to every process of the unit would end workers mid-render, and the answers begun with them.
        #expect(unit.split(separator: "\n").contains("KillMode=mixed"))
        let command = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = command.split(separator: " ").map(String.init)
        #expect(words[0] == "ExecStart=/usr/local/bin/mihiraki" && words[1] == "serve")
        try serves(Array(words.dropFirst(2)))
    }

    /// The YAML documents of deploy/kubernetes.yaml, as JSON objects.
    func kubernetesObjects() throws -> [[String: Any]] {
        let run = try runTool("/usr/bin/env", ["python3", "-c",
            "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))",
            Self.deploy + "kubernetes.yaml"])
        try #require(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test("Kubernetes: a Deployment probing /healthz, scraped by Prometheus, the library mounted read-only, and a Service to it")
    func kubernetes() throws {
        let objects = try kubernetesObjects()
        let deployment = try #require(objects.first { $0["kind"] as? String == "Deployment" })
        let service = try #require(objects.first { $0["kind"] as? String == "Service" })
        let template = try #require((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])
        let annotations = try #require((template["metadata"] as? [String: Any])?["annotations"] as? [String: String])
        #expect(annotations["prometheus.io/scrape"] == "true" && annotations["prometheus.io/path"] == "/metrics"
                && annotations["prometheus.io/port"] == "8080")
        let pod = try #require(template["spec"] as? [String: Any])
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        let ports = try #require(container["ports"] as? [[String: Any]])
        #expect(ports.contains { $0["name"] as? String == "http" && $0["containerPort"] as? Int == 8080 })
        for probe in ["livenessProbe", "readinessProbe"] {
            let get = try #require((container[probe] as? [String: Any])?["httpGet"] as? [String: Any])
            #expect(get["path"] as? String == "/healthz" && get["port"] as? String == "http", "\(probe)")
        }
        let mounts = try #require(container["volumeMounts"] as? [[String: Any]])
        let mount = try #require(mounts.first { $0["mountPath"] as? String == "/library" })
        #expect(mount["readOnly"] as? Bool == true)
        let volumes = try #require(pod["volumes"] as? [[String: Any]])
        let volume = try #require(volumes.first { $0["name"] as? String == mount["name"] as? String })
        #expect((volume["persistentVolumeClaim"] as? [String: Any])?["readOnly"] as? Bool == true)
        let servicePorts = try #require((service["spec"] as? [String: Any])?["ports"] as? [[String: Any]])
        #expect(servicePorts.first?["targetPort"] as? String == "http")
        #expect(((service["spec"] as? [String: Any])?["selector"] as? [String: String])?["app"] == "mihiraki")
        // The image's entry point with the Deployment's arguments serves.
        let containerfile = try String(contentsOfFile: Self.deploy + "Containerfile", encoding: .utf8)
        let entry = try #require(containerfile.split(separator: "\n").first { $0.hasPrefix("ENTRYPOINT ") })
        let entryWords = try #require(try JSONSerialization.jsonObject(with: Data(entry.dropFirst(11).utf8)) as? [String])
        #expect(entryWords.prefix(3) == ["/usr/local/bin/mihiraki", "serve", "/library"])
        let args = container["args"] as? [String] ?? []
        try serves(Array(entryWords.dropFirst(2)) + args)
        // The memory limit holds docs/serve.md's worst case for these arguments:
        // 45 MiB + the cache + jobs × (300 MiB + 9 bytes × --max-pixels).
        func value(_ flag: String) -> Int? { args.firstIndex(of: flag).flatMap { Int(args[$0 + 1]) } }
        let jobs = try #require(value("--jobs")), cacheMB = try #require(value("--cache-mb"))
        let maxPixels = try #require(value("--max-pixels"))
        let worst = (45 + cacheMB) << 20 + jobs * (300 << 20 + 9 * maxPixels)
        let limit = try #require(((container["resources"] as? [String: Any])?["limits"] as? [String: Any])?["memory"] as? String)
        #expect(limit.hasSuffix("Gi") && worst <= Int(limit.dropLast(2))! << 30, "worst case \(worst >> 20) MiB, limit \(limit)")
    }

    @Test("The container installs every library the binary links (the Swift runtime is linked in by --static-swift-stdlib)")
    func containerLibraries() throws {
        let containerfile = try String(contentsOfFile: Self.deploy + "Containerfile", encoding: .utf8)
        let install = try #require(containerfile.range(of: "--no-install-recommends"))
        let listed = containerfile[install.upperBound...].prefix { $0 != "&" }
            .split(whereSeparator: { " \\\n".contains($0) }).map(String.init)
        #expect(listed.count >= 10, "\(listed)")
        #expect(containerfile.contains("COPY .build/release/mihiraki /usr/local/bin/mihiraki"))
        // Everything the listed packages bring in.
        let depends = try runTool("/usr/bin/env", ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
                                                   "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"] + listed)
        try #require(depends.status == 0, "\(depends.stderr)")
        let installed = Set(depends.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("Depends: ") || $0.hasPrefix("PreDepends: ") ? String($0.split(separator: " ")[1]) : $0 }
            .map { $0.split(separator: ":").first.map(String.init) ?? $0 })
        let linked = try runTool("/usr/bin/ldd", [try mihirakiPath()])
        try #require(linked.status == 0)
        var checked = 0
        for line in linked.stdout.split(separator: "\n") {
            guard let arrow = line.range(of: "=> /"), !line.contains("/swift/") else { continue }
            let library = String(line[arrow.upperBound...].split(separator: " ")[0])
            let real = URL(fileURLWithPath: "/" + library).resolvingSymlinksInPath().path
            let owner = try runTool("/usr/bin/dpkg", ["-S", real])
            let fallback = owner.status == 0 ? owner : try runTool("/usr/bin/dpkg", ["-S", "/" + library])
            let package = String(fallback.stdout.split(separator: ":").first ?? "")
            #expect(installed.contains(package), "\(library) comes from \(package), which the Containerfile does not bring")
            checked += 1
        }
        #expect(checked >= 20)
        // libavif, libjxl and libarchive are loaded when first needed (lazy_codecs.h), so ldd does not
        // name them (a process that never reads them never pays for loading them): the container must
        // bring them all the same.
        for soname in ["libavif.so.15", "libjxl.so.0.7", "libarchive.so.13"] {
            #expect(!linked.stdout.contains(soname), "\(soname) is linked, not loaded on first use")
            let owner = try runTool("/usr/bin/dpkg", ["-S", "/usr/lib/x86_64-linux-gnu/" + soname])
            let package = String(owner.stdout.split(separator: ":").first ?? "")
            #expect(owner.status == 0 && installed.contains(package), "\(soname) comes from \(package)")
        }
    }

    @Test("The Python and shell signing examples sign as `mihiraki sign` does",
          arguments: ["http://127.0.0.1:8080/api/books/Series%20A%2Fvol1/spreads/3.webp?size=x300&direction=rtl",
                      "https://spreads.example/api/books/vol1.cbz/manifest", "http://[::1]:9000/api/books?offset=1000&limit=1000"])
    func signingExamples(url: String) throws {
        let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
        let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
        let signed = try mihiraki(["sign", url, "--sign-key", key, "--sign-salt", salt])
        try #require(signed.status == 0, "\(signed.stderr)")
        for example in ["sign-example.py", "sign-example.sh"] {
            let run = try runTool(Self.deploy + example, [key, salt, url])
            #expect(run.status == 0 && run.stdout == signed.stdout, "\(example): \(run.stdout)\(run.stderr)")
        }
    }
}
