import Foundation
import MihirakiTestSupport
import Testing

/// What needs the real process and the wire: the bytes `render` writes, and
/// limits NIO enforces on the connection. Routes, ETags and the hostile
/// catalogue run in-process (MihirakiServerTests/RouteTests).
@Suite("mihiraki serve: identity with render, the wire", .serialized, .tags(.process), .timeLimit(.minutes(10)))
struct ServerCLITests {
    @Test("Signed URLs from the command line: `mihiraki sign` (flags or environment) gives URLs the server answers; an unsigned one is 403; the access log is JSON lines")
    func signedURLs() throws {
        let key = "aa396160c50ea766910eab53", salt = "b3fb8f215827bda5d0e7313d"
        try withServer(["--sign-key", key + ",0102", "--sign-salt", salt + ",0304"]) { _, server in
            let path = "/api/books/manga.cbz/spreads/1.webp?size=x200"
            let signed = try mihiraki(["sign", server.base + path], environment: ["MIHIRAKI_SIGN_KEY": key, "MIHIRAKI_SIGN_SALT": salt])
            let url = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(signed.status == 0 && url.hasPrefix(server.base + "/s/") && url.hasSuffix(path), "\(signed.stdout)")
            let answer = try httpGet(server, String(url.dropFirst(server.base.count)))
            #expect(answer.status == 200 && answer.headers["content-type"] == "image/webp")
            // The rotation's second pair, given as flags.
            let second = try mihiraki(["sign", path, "--sign-key", "0102", "--sign-salt", "0304"])
            #expect(try httpGet(server, second.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).status == 200)
            let unsigned = try httpGet(server, path)
            #expect(unsigned.status == 403 && unsigned.error?.contains("signed") == true)
            #expect(try httpGet(server, "/healthz").status == 200)
            server.stop()
            let lines = server.stderr.split(separator: "\n")
            #expect(lines.count == 4, "\(server.stderr)")
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["status"] is Int && !(object?["path"] as? String ?? "/s/").hasPrefix("/s/"), "\(line)")
            }
        }
        let bad = try mihiraki(["sign", "/api/books", "--sign-key", "xyz", "--sign-salt", "00"])
        #expect(bad.status != 0 && bad.stderr.contains("hexadecimal"), "\(bad.stderr)")
    }

    @Test("Routes: health, the book list, a manifest equal to plan --json, every format byte-identical to render")
    func routesAndIdentity() throws {
        try withServer { library, server in
            #expect(try httpGet(server, "/healthz").status == 200)
            let list = try httpGet(server, "/api/books")
            #expect(list.headers["content-type"]?.hasPrefix("application/json") == true)
            let books = (try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["books"] as? [[String: String]] ?? []
            #expect(books.map { $0["id"]! } == ["broken", "leaky", "manga.cbz", "Series A/vol1"], "\(list.text)")
            #expect(books.last?["url"] == "/api/books/Series%20A%2Fvol1")

            let book = library.root + "/Series A/vol1"
            let plan = try mihiraki(["plan", book, "--json", "--size", "x300", "--direction", "rtl"])
            let manifest = try httpGet(server, "/api/books/Series%20A%2Fvol1/manifest?size=x300&direction=rtl")
            #expect(manifest.status == 200 && manifest.text == plan.stdout)

            let out = library.folder.path + "/cli"
            for (format, ext) in [("png", "png"), ("jpeg", "jpg"), ("webp", "webp"), ("avif", "avif")] {
                let flags = ["--size", "x300", "--direction", "rtl", "--background", "#102030", "--format", format]
                #expect(try mihiraki(["render", book, "-o", out + "/" + format, "--quiet"] + flags).status == 0)
                for n in [1, 3] {
                    let answer = try httpGet(server, "/api/books/Series%20A%2Fvol1/spreads/\(n).\(ext)?size=x300&direction=rtl&background=%23102030")
                    let file = try Data(contentsOf: URL(fileURLWithPath: out + "/\(format)/vol1/spread-00\(n).\(ext)"))
                    #expect(answer.status == 200 && answer.body == file, "\(format) spread \(n)")
                    #expect(answer.headers["content-type"] == "image/" + format)
                    #expect(answer.headers["x-content-type-options"] == "nosniff")
                    #expect(answer.headers["cache-control"]?.contains("max-age") == true)
                }
            }
            // An archive book with ComicInfo: right to left by itself.
            let rtl = try httpGet(server, "/api/books/manga.cbz/manifest?size=x200")
            #expect(rtl.text.contains(#""direction": "rtl""#), "\(rtl.text)")
            #expect(server.stop() == 0)
        }
    }

    @Test("A busy port and a bad --host are one line in the user's words, exit 2")
    func listenErrors() throws {
        try withServer { library, server in
            let busy = try mihiraki(["serve", library.root, "--port", String(server.port)])
            #expect(busy.status == 2)
            #expect(busy.stderr == "mihiraki: port \(server.port) is in use (try --port N, or 0 for any free port)\n")
        }
        for host in ["not..a.host", "10.255.255.254"] {
            let bad = try mihiraki(["serve", Fixtures.testImages.path, "--host", host, "--port", "0"])
            #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
            #expect(bad.stderr.contains(host) && !bad.stderr.contains("Error"), "\(bad.stderr)")
        }
    }

    @Test("Out-of-range serve options are one line naming the option, exit 2, before anything listens")
    func badOptions() throws {
        for (flag, value) in [("--timeout", "0"), ("--timeout", "-1"), ("--timeout", "nan"), ("--max-size", "0x10"), ("--jobs", "0")] {
            let bad = try mihiraki(["serve", Fixtures.testImages.path, "--port", "0", flag, value])
            #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1, "\(flag) \(value): \(bad.stderr)")
            #expect(bad.stderr.contains(flag), "\(flag) \(value): \(bad.stderr)")
        }
    }

    @Test("A 100 kB URL or header gets a 400 with a JSON error, and the server goes on")
    func longURL() throws {
        try withServer { library, server in
            let answer = try httpGet(server, "/api/books/" + String(repeating: "a", count: 100_000) + "/manifest")
            #expect(answer.status == 400 && answer.error?.contains("too long") == true, "\(answer.status) \(answer.text)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
            let header = try httpGet(server, "/healthz", headers: ["X-Big: " + String(repeating: "b", count: 100_000)])
            #expect(header.status == 400 && header.error != nil, "\(header.status) \(header.text)")
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }

    /// Listing a served folder book resolved every entry's real path, one
    /// readlink per folder above it: a book 1,800 folders deep held its
    /// request past the server's deadline (504 after 30 s), and a core in the
    /// server's own process for minutes after.
    @Test("A book folder 1,800 folders deep: its manifest and spreads are served, both pages")
    func deepFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let deep = Array(repeating: "a", count: 1_800).joined(separator: "/")
        try folder.write("root/deep/p1.png", try Fixtures.solidPNG(width: 60, height: 90, [40]))
        try folder.write("root/deep/\(deep)/p2.png", try Fixtures.solidPNG(width: 60, height: 90, [80]))
        let server = try RunningServer(root: folder.path + "/root", ["--quiet"])
        defer { server.stop() }
        let manifest = try httpGet(server, "/api/books/deep/manifest?layout=single")
        #expect(manifest.status == 200, "\(manifest.status) \(manifest.text.suffix(200))")
        #expect(manifest.text.contains("\"p1.png\"") && manifest.text.contains(deep + "/p2.png"))
        #expect(try httpGet(server, "/api/books/deep/spreads/2.png?layout=single&size=x50").status == 200)
    }

    @Test("An HTTP/1.0 request without keep-alive gets its answer and the connection closes at once")
    func http10() throws {
        try withServer { _, server in
            let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.settimeout(10)
            start = time.time()
            s.sendall(b"GET /healthz HTTP/1.0\\r\\n\\r\\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            print(round(time.time() - start, 2), data.endswith(b'{"status":"ok"}'))
            """
            let run = try runTool("/usr/bin/env", ["python3", "-c", script, String(server.port)])
            let parts = run.stdout.split(separator: " ")
            #expect(parts.count == 2 && (Double(parts[0]) ?? 99) < 5 && parts[1].hasPrefix("True"), "\(run.stdout) \(run.stderr)")
        }
    }

    /// `FOO` was a 400 "malformed" from the HTTP/1 parser; `CONNECT` a 405
    /// whose body the encoder dropped, on a connection left waiting.
    @Test("FOO and CONNECT over the wire: 405, Allow: GET, HEAD, a JSON error, and the connection closed; the server keeps serving")
    func unknownMethods() throws {
        try withServer { _, server in
            let script = """
            import socket, sys, time, json
            for request in [b"FOO /healthz HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
                            b"CONNECT example.com:443 HTTP/1.1\\r\\nHost: example.com:443\\r\\n\\r\\n"]:
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s.settimeout(10)
                start = time.time()
                s.sendall(request)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                head, _, body = data.partition(b"\\r\\n\\r\\n")
                lines = head.decode().split("\\r\\n")
                headers = {k.lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
                error = json.loads(body)["error"]
                print(lines[0], "|", headers.get("allow"), "|", headers.get("content-length") == str(len(body)), "|",
                      "GET and HEAD" in error, "|", time.time() - start < 5)
            """
            let run = try runTool("/usr/bin/env", ["python3", "-c", script, String(server.port)])
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(run.stdout) \(run.stderr)")
            for line in lines {
                #expect(line == "HTTP/1.1 405 Method Not Allowed | GET, HEAD | True | True | True", "\(line)")
            }
            #expect(try httpGet(server, "/healthz").status == 200)
        }
    }
}
