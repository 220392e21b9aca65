import Hummingbird
import Mihiraki

/// The spread viewer at `/`: pick a book, flip its spreads with the buttons,
/// the arrow keys or a swipe (which follow the book's reading direction: in a
/// right-to-left book the left arrow moves forward), sized to the window,
/// the next spread preloaded. Like a tablet reader, a portrait window shows
/// one page at a time and a landscape one spreads, and the position in the
/// URL is the page being read (`#book=…&page=N`), kept when the window turns.
/// Plain HTML, CSS and JavaScript served from the binary; the
/// Content-Security-Policy allows nothing but this server.
enum Viewer {
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The viewer's page; `opening` is the book it opens when the address names none.
    static func page(opening: String? = nil) -> Response {
        let body = opening.map { "<body data-open=\"\(XMLText.escape($0))\">" } ?? "<body>"
        var response = asset(html.replacingOccurrences(of: "<body>", with: body), type: "text/html; charset=utf-8")
        response.headers[.contentSecurityPolicy] = policy
        return response
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Mihiraki</title>
    <link rel="stylesheet" href="/viewer.css">
    <script src="/viewer.js" defer></script>
    </head>
    <body>
    <header>
      <select id="book" aria-label="Book"></select>
      <label title="Keep together two pages whose edges continue one picture"><input id="pairing" type="checkbox"> Automatic pairing</label>
      <label title="Cut two-page scans at the fold into their two pages"><input id="split" type="checkbox"> Split wide pages</label>
      <label title="Cut white, black or grey scanner borders off every page"><input id="crop" type="checkbox"> Crop borders</label>
      <span id="position"></span>
      <span id="message" role="status"></span>
    </header>
    <main>
      <button id="left" type="button" aria-label="Left" disabled>&#8249;</button>
      <img id="spread" alt="" hidden>
      <button id="right" type="button" aria-label="Right" disabled>&#8250;</button>
    </main>
    </body>
    </html>

    """

    static let style = """
    html, body { margin: 0; height: 100%; background: #202020; color: #eee; font: 14px system-ui, sans-serif; }
    body { display: flex; flex-direction: column; }
    header { display: flex; gap: 12px; align-items: center; padding: 6px 10px; height: 28px; }
    select { max-width: 50vw; }
    label { white-space: nowrap; }
    #message { color: #f99; }
    /* Horizontal swipes turn pages (viewer.js), so the browser must not take them for history navigation. */
    html, body { overscroll-behavior: none; }
    main { flex: 1; display: flex; align-items: center; justify-content: center; min-height: 0; touch-action: pan-y pinch-zoom; }
    #spread { max-width: calc(100vw - 96px); max-height: calc(100vh - 44px); }
    button { width: 40px; height: 80px; margin: 0 4px; font-size: 32px; background: #333; color: #eee;
             border: 0; border-radius: 6px; cursor: pointer; }
    button:disabled { opacity: 0.3; cursor: default; }

    """

    static let script = """
    "use strict";
    const $ = (id) => document.getElementById(id);
    // page: the page being read, the position the URL keeps. spreads: each
    // spread's page numbers, from the manifest of the current layout.
    const state = { book: null, spreads: [], spread: 1, page: 1, direction: "ltr", size: "", layout: "spread", on: {} };
    // The options the header's boxes switch: each box's id, and the query
    // parameter (kept in the link too) it sets when ticked. Automatic pairing
    // finds two-page pictures split into two files; splitting cuts two-page
    // scans in two, which the portrait view then shows a page at a time.
    const toggles = [{ id: "pairing", name: "pairing", value: "auto" }, { id: "split", name: "split-wide", value: "auto" },
                     { id: "crop", name: "crop-borders", value: "1" }];

    // A tablet reader's rule: one page at a time on a portrait window, spreads on a landscape one.
    const layoutForWindow = () => window.innerHeight > window.innerWidth ? "single" : "spread";

    // The room for a spread, in device pixels.
    function room() {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      return {
        w: Math.max(64, Math.min(4096, Math.round((window.innerWidth - 96) * ratio))),
        h: Math.max(64, Math.min(4096, Math.round((window.innerHeight - 44) * ratio))),
      };
    }
    const roomKey = () => { const r = room(); return r.w + "x" + r.h; };
    const bookURL = (id) => "/api/books/" + encodeURIComponent(id);
    const query = () => toggles.filter((t) => state.on[t.id]).map((t) => "&" + t.name + "=" + t.value).join("")
      + (state.layout === "single" ? "&layout=single" : "");
    const spreadURL = (n) => bookURL(state.book) + "/spreads/" + n + ".webp?size=" + state.size + query();

    function readHash() {
      const params = new URLSearchParams(location.hash.slice(1));
      const number = (name) => { const n = parseInt(params.get(name) || "", 10); return n >= 1 ? n : null; };
      // spread=N is what links made before the position was a page; it is read once, as a spread of the layout the window opens in.
      return { book: params.get("book"), page: number("page"), spread: number("spread"),
               on: Object.fromEntries(toggles.map((t) => [t.id, params.get(t.name) === t.value])) };
    }
    function writeHash() {
      const params = new URLSearchParams({ book: state.book, page: String(state.page) });
      for (const t of toggles) if (state.on[t.id]) params.set(t.name, t.value);
      history.replaceState(null, "", "#" + params.toString());
    }

    // Nothing to show (no book, a book that failed): both arrows off.
    function nothingToShow(message) {
      state.spreads = [];
      $("left").disabled = true;
      $("right").disabled = true;
      $("spread").hidden = true;
      $("position").textContent = "";
      $("message").textContent = message;
    }

    // The spread holding a page (the last one for a page past the end).
    function spreadOf(page) {
      const found = state.spreads.findIndex((pages) => pages.includes(page));
      return found >= 0 ? found + 1 : state.spreads.length;
    }

    function show(n) {
      const count = state.spreads.length;
      if (!state.book || count === 0) return;
      state.spread = Math.min(Math.max(1, n), count);
      // The page being read stays when its spread is shown (after turning
      // the window); moving on reads the new spread's first page.
      const pages = state.spreads[state.spread - 1];
      if (!pages.includes(state.page) && pages.length > 0) state.page = Math.min(...pages);
      const img = $("spread");
      const wanted = state.spread;
      img.onload = () => { img.hidden = false; $("message").textContent = ""; };
      // A spread the server cannot make (a damaged page: 422) says why, instead of a broken image.
      img.onerror = async () => {
        if (state.spread !== wanted) return;
        img.hidden = true;
        let reason = "the spread could not be loaded";
        try { reason = (await (await fetch(img.src)).json()).error || reason; } catch (ignored) {}
        $("message").textContent = (state.layout === "single" ? "Page " : "Spread ") + wanted + ": " + reason;
      };
      img.src = spreadURL(state.spread);
      img.alt = (state.layout === "single" ? "Page " : "Spread ") + state.spread + " of " + count;
      img.dataset.spread = String(state.spread);
      img.dataset.page = String(state.page);
      $("position").textContent = state.spread + " / " + count;
      // The arrow that moves forward is on the reading side: right for ltr, left for rtl.
      const forward = state.direction === "rtl" ? "left" : "right";
      const back = forward === "left" ? "right" : "left";
      $(forward).disabled = state.spread >= count;
      $(back).disabled = state.spread <= 1;
      $(forward).title = "Next"; $(back).title = "Previous";
      if (state.spread < count) new Image().src = spreadURL(state.spread + 1);
      writeHash();
    }
    function step(side) {
      if (state.spreads.length === 0) return;
      const forward = state.direction === "rtl" ? "left" : "right";
      show(state.spread + (side === forward ? 1 : -1));
    }

    async function fetchManifest(size) {
      const answer = await fetch(bookURL(state.book) + "/manifest?size=" + size + query());
      const body = await answer.json();
      if (!answer.ok) throw new Error(body.error || answer.statusText);
      return body;
    }

    // Opens a book at a page, in the layout the window's shape asks for:
    // the spread's own aspect at the window's height, or at its width when
    // that is too wide, so there are no bars around the pages. `spread`, when
    // given, is an old link's spread number instead of a page.
    async function openBook(id, page, spread) {
      state.book = id;
      state.room = roomKey();
      state.layout = layoutForWindow();
      document.body.dataset.layout = state.layout;
      $("message").textContent = "";
      try {
        const r = room();
        state.size = "x" + r.h;
        let manifest = await fetchManifest(state.size);
        if (manifest.canvas.width > r.w) {
          state.size = r.w + "x";
          manifest = await fetchManifest(state.size);
        }
        state.spreads = manifest.spreads.map((s) => s.slots.map((slot) => slot.page).filter((p) => p !== null));
        state.direction = manifest.direction;
        document.body.dataset.direction = manifest.direction;
        // An old link's spread shows its first page.
        state.page = spread ? 0 : page;
        show(spread || spreadOf(page));
      } catch (error) {
        nothingToShow(String(error.message || error));
      }
    }

    // A swipe turns the page the way a finger turns paper: dragging the
    // page leftwards shows what lies to the right, which is the next page
    // in a left-to-right book and the previous one in a right-to-left book.
    function followSwipes(area) {
      let start = null;
      area.addEventListener("touchstart", (event) => {
        start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
      }, { passive: true });
      area.addEventListener("touchend", (event) => {
        if (!start || event.changedTouches.length !== 1) return;
        const dx = event.changedTouches[0].clientX - start.x, dy = event.changedTouches[0].clientY - start.y;
        start = null;
        if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
        step(dx < 0 ? "right" : "left");
      });
    }

    async function start() {
      const answer = await fetch("/api/books?limit=100000");
      const list = (await answer.json()).books || [];
      const select = $("book");
      for (const book of list) {
        const option = document.createElement("option");
        option.value = book.id;
        option.textContent = book.id;
        select.appendChild(option);
      }
      const wanted = readHash();
      state.on = wanted.on;
      for (const t of toggles) {
        // defaultChecked, so the box's state is in the page's markup too.
        $(t.id).checked = $(t.id).defaultChecked = state.on[t.id];
        $(t.id).addEventListener("change", () => {
          state.on[t.id] = $(t.id).checked;
          if (state.book) openBook(state.book, state.page);
        });
      }
      select.addEventListener("change", () => { if (select.value) openBook(select.value, 1); });
      $("left").addEventListener("click", () => step("left"));
      $("right").addEventListener("click", () => step("right"));
      document.addEventListener("keydown", (event) => {
        if (event.key === "ArrowLeft") step("left");
        if (event.key === "ArrowRight") step("right");
      });
      followSwipes(document.querySelector("main"));
      // Turning the device (or resizing the window) keeps the page being read.
      let resizing = 0;
      window.addEventListener("resize", () => {
        clearTimeout(resizing);
        resizing = setTimeout(() => {
          if (state.book && (roomKey() !== state.room || layoutForWindow() !== state.layout)) openBook(state.book, state.page);
        }, 250);
      });
      if (list.length === 0) { nothingToShow("No books here."); return; }
      // A link to a book that is not here says so, rather than opening another.
      if (wanted.book !== null && !list.some((b) => b.id === wanted.book)) {
        const none = document.createElement("option");
        none.value = ""; none.textContent = "Choose a book";
        select.insertBefore(none, select.firstChild);
        select.value = "";
        nothingToShow("There is no book " + JSON.stringify(wanted.book) + " here: choose one.");
        return;
      }
      // The server's --open, when the address names no book and that book is listed.
      const opening = document.body.dataset.open;
      const first = wanted.book !== null ? wanted.book
        : list.some((b) => b.id === opening) ? opening : list[0].id;
      select.value = first;
      if (first === wanted.book) {
        await openBook(first, wanted.page || 1, wanted.page ? null : wanted.spread);
      } else {
        await openBook(first, 1);
      }
    }
    start();

    """
}
