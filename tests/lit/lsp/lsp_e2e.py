#!/usr/bin/env python3
"""End-to-end test of `blkc lsp`: speaks JSON-RPC over its stdio.

Conversation: initialize -> didOpen with an erroneous file -> diagnostics at
the exact ranges of `blkc check --diagnostics-format=json` -> hover over a
block variable gives its shape per @config -> didChange with the fix ->
diagnostics cleared -> shutdown/exit with code 0. Plus hover on built-ins and
declarations, definition, documentSymbol, completion, UTF-16 columns, an
unparseable buffer, unknown methods and documents, and garbage input.
Usage: lsp_e2e.py <path to blkc>
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import LspClient  # noqa: E402

BLKC = sys.argv[1] if len(sys.argv) > 1 else "blkc"

HEADER = """@config(BLOCK = 1024, num_warps = 4)
@config(BLOCK = 256,  num_warps = 2)
@grid(cdiv(n, BLOCK))
kernel double_grid(x: *f32, out: *f32, n: i32, const BLOCK: i32) {
    let pid = program_id(0);
    let offsets = pid * BLOCK + arange(0, BLOCK);
    let mask = offsets < n;
    let v = load(x + offsets, mask: mask, other: 0.0);
"""
# Line 9 (0-based 9): a mask whose shape does not match the pointers.
BROKEN = HEADER + """    let m2 = arange(0, 64) < n;
    store(out + offsets, v * 2.0, mask: m2);
}
"""
FIXED = HEADER + """    let m2 = arange(0, BLOCK) < n;
    store(out + offsets, v * 2.0, mask: m2);
}
"""

WORKDIR = tempfile.mkdtemp(prefix="blk-lsp-e2e-")
PATH = os.path.join(WORKDIR, "double.blk")
URI = "file://" + PATH


def pos(text, needle, nth=0, delta=0):
    """LSP position of the `nth` occurrence of `needle` (+delta chars)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    lineText = text.split("\n")[line]
    return {"line": line, "character": len(lineText[:col].encode("utf-16-le")) // 2}


def hoverText(result):
    assert result is not None, "hover returned null"
    contents = result["contents"]
    return contents["value"] if isinstance(contents, dict) else str(contents)


def initialize(client, root=WORKDIR):
    r = client.call("initialize", {"processId": os.getpid(), "rootUri": "file://" + root,
                                   "capabilities": {}})
    caps = r["result"]["capabilities"]
    client.notify("initialized", {})
    return caps


def openDoc(client, text, version=1, uri=URI):
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "blk", "version": version, "text": text}})
    return client.waitDiagnostics(uri)


def change(client, text, version, uri=URI):
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})
    return client.waitDiagnostics(uri)


def hover(client, text, needle, nth=0, delta=0, uri=URI):
    r = client.call("textDocument/hover", {"textDocument": {"uri": uri},
                                           "position": pos(text, needle, nth, delta)})
    assert "error" not in r, r
    return r["result"]


# --------------------------------------------------------------------------

def testMainConversation():
    """The conversation of the issue, checked against `blkc check`."""
    with open(PATH, "w") as f:
        f.write(BROKEN)
    check = subprocess.run([BLKC, "check", "--diagnostics-format=json", PATH],
                           capture_output=True, text=True)
    expected = json.loads(check.stdout)
    assert check.returncode == 1 and expected, "blkc check must reject the broken file"

    # `--stdio`, as vscode-languageclient's stdio transport passes it (it
    # was rejected with exit 2, and VS Code gave up after five restarts).
    client = LspClient(BLKC, ["--stdio"])
    caps = initialize(client)
    assert caps["textDocumentSync"]["change"] == 1, caps
    assert caps["textDocumentSync"]["openClose"] is True, caps
    for cap in ("hoverProvider", "definitionProvider", "documentSymbolProvider"):
        assert caps.get(cap) is True, cap
    assert "completionProvider" in caps
    # Only what is implemented is advertised.
    assert caps.get("workspaceSymbolProvider") is True, caps
    assert "documentRangeFormattingProvider" not in caps, caps

    diags = openDoc(client, BROKEN, version=1)
    assert diags["version"] == 1, diags
    got = diags["diagnostics"]
    assert len(got) == len(expected), (got, expected)
    for d, e in zip(got, expected):
        assert d["code"] == e["id"], (d, e)
        assert d["severity"] == 1
        assert d["source"] == "blkc"
        assert d["message"] == e["message"], (d, e)
        # blkc counts 1-based lines and byte columns; the file is ASCII.
        assert d["range"] == {"start": {"line": e["line"] - 1, "character": e["column"] - 1},
                              "end": {"line": e["endLine"] - 1, "character": e["endColumn"] - 1}}, (d, e)
    first = got[0]
    assert first["range"]["start"] == pos(BROKEN, "m2);"), first
    assert first["code"] == "sema_mask_shape", first
    related = first.get("relatedInformation", [])
    notes = [r for r in related if "@config" in r["message"]]
    assert notes and notes[0]["location"]["uri"] == URI, related
    assert notes[0]["location"]["range"]["start"] == {"line": 0, "character": 0}, notes
    assert any("pointer shape [1024]" in r["message"] for r in related), related

    # Hover over a block variable (a use, then its declaration): shape per @config.
    text = hoverText(hover(client, BROKEN, "offsets < n", delta=2))
    assert "BLOCK=1024 → i32[1024]" in text and "BLOCK=256 → i32[256]" in text, text
    r = hover(client, BROKEN, "offsets", delta=1)
    text = hoverText(r)
    assert "offsets" in text and "i32[1024]" in text and "i32[256]" in text, text
    assert r["range"]["start"] == pos(BROKEN, "offsets"), r
    # Same type in every config: one line.
    text = hoverText(hover(client, BROKEN, "pid * BLOCK"))
    assert "pid: i32" in text and "→" not in text, text
    text = hoverText(hover(client, BROKEN, "x: *f32"))
    assert "x: *f32" in text, text
    text = hoverText(hover(client, BROKEN, "mask: mask", delta=7))
    assert "i1[1024]" in text and "i1[256]" in text, text

    # The fix clears the diagnostics, with the new version.
    diags = change(client, FIXED, version=2)
    assert diags == {"uri": URI, "version": 2, "diagnostics": []}, diags

    r = client.call("shutdown")
    assert r["result"] is None and "error" not in r, r
    client.notify("exit")
    assert client.close() == 0, client.stderr


def testFeatures():
    """Hover on built-ins and constants, definition, symbols, completion."""
    text = FIXED + """
const SCALE = 2;
fn twice(y) { return y * SCALE; }
"""
    client = LspClient(BLKC)
    initialize(client)
    assert openDoc(client, text)["diagnostics"] == []

    h = hoverText(hover(client, text, "arange", delta=1))
    assert "arange(start, end)" in h and "power of two" in h, h
    h = hoverText(hover(client, text, "load("))
    assert "load(ptrs" in h, h
    h = hoverText(hover(client, text, "BLOCK + arange"))
    assert "BLOCK=1024 → i32 = 1024" in h and "BLOCK=256 → i32 = 256" in h, h
    h = hoverText(hover(client, text, "double_grid"))
    assert "kernel double_grid(" in h and "double_grid__BLOCK_1024__w4" in h, h

    r = client.call("textDocument/definition", {"textDocument": {"uri": URI},
                                                "position": pos(text, "offsets < n")})
    loc = r["result"]
    assert loc["uri"] == URI and loc["range"]["start"] == pos(text, "offsets"), loc
    # Inside an uncalled generic fn: syntactic scopes still resolve.
    r = client.call("textDocument/definition", {"textDocument": {"uri": URI},
                                                "position": pos(text, "SCALE;")})
    assert r["result"]["range"]["start"] == pos(text, "SCALE = 2"), r

    r = client.call("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    symbols = {s["name"]: s for s in r["result"]}
    assert set(symbols) == {"double_grid", "SCALE", "twice"}, symbols
    assert symbols["double_grid"]["detail"] == "kernel"
    assert symbols["double_grid"]["selectionRange"]["start"] == pos(text, "double_grid")
    assert symbols["SCALE"]["kind"] == 14 and symbols["twice"]["kind"] == 12

    r = client.call("textDocument/completion", {"textDocument": {"uri": URI},
                                                "position": pos(text, "let v =")})
    items = {i["label"]: i for i in r["result"]["items"]}
    for name in ("offsets", "mask", "pid", "x", "BLOCK", "SCALE", "twice", "arange", "let", "f32"):
        assert name in items, name
    assert "m2" not in items and "v" not in items, "a let is visible only after its statement"
    assert items["arange"]["detail"].startswith("arange(start, end)"), items["arange"]
    r = client.call("textDocument/completion", {"textDocument": {"uri": URI},
                                                "position": pos(text, "config", delta=0)})
    assert {"config", "grid", "autotune"} <= {i["label"] for i in r["result"]["items"]}, r

    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testAutotuneAttributes():
    """`@requires` and `@autotune`'s keywords: completion and hover."""
    text = """@config(BLOCK = 1024)
@autotune(key = [n], bucket = pow2, restore = [out])
@requires(n <= BLOCK)
kernel k(out: *f32, n: i32, const BLOCK: i32) {
    store(out + arange(0, BLOCK), 1.0, mask: arange(0, BLOCK) < n);
}
"""
    client = LspClient(BLKC)
    initialize(client)
    assert openDoc(client, text)["diagnostics"] == []

    def labels(needle, delta=0):
        r = client.call("textDocument/completion", {"textDocument": {"uri": URI},
                                                    "position": pos(text, needle, delta=delta)})
        return {i["label"]: i for i in r["result"]["items"]}
    items = labels("requires")
    assert {"config", "autotune", "requires", "grid", "specialize"} <= set(items), items
    assert items["requires"]["detail"] == "@requires(cond)", items["requires"]
    assert "bucket = pow2 | exact" in items["autotune"]["detail"], items["autotune"]
    # At an argument of @autotune (its start, after a comma): the keywords.
    for needle, delta in (("key =", 0), ("bucket =", 0), ("restore", 0)):
        assert set(labels(needle, delta)) == {"key", "bucket", "restore", "zero"}, needle
    # After `bucket =`: the named buckets; elsewhere in the list: names in scope.
    assert set(labels("pow2")) == {"pow2", "exact"}
    assert "n" in labels("n], bucket") and "key" not in labels("n], bucket")
    assert "key" not in labels("n <= BLOCK")

    h = hoverText(hover(client, text, "requires"))
    assert "@requires(cond)" in h and "valid only for arguments" in h, h
    h = hoverText(hover(client, text, "bucket"))
    assert "bucket = pow2 | exact" in h, h
    h = hoverText(hover(client, text, "pow2"))
    assert "power of two" in h, h
    h = hoverText(hover(client, text, "restore"))
    assert "put back after" in h, h
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testUtf16AndUnparseable():
    """Columns count UTF-16 units; a buffer that does not parse gets diagnostics."""
    client = LspClient(BLKC)
    initialize(client)
    uri = "file://" + os.path.join(WORKDIR, "utf16.blk")
    text = FIXED.replace("    let m2 = arange(0, BLOCK) < n;",
                         "    /* é😀 */ let m2 = arange(0, 3) < n;")
    diags = openDoc(client, text, uri=uri)["diagnostics"]
    assert diags, "expected the arange error"
    start = diags[0]["range"]["start"]
    assert start == pos(text, "arange(0, 3)"), (start, pos(text, "arange(0, 3)"))
    # "    /* é😀 */ let m2 = " is 23 UTF-16 units (22 code points, 26 bytes).
    assert start["character"] == 23, start

    broken = "kernel k(x: *f32 {\n    let = ;\n"
    diags = change(client, broken, version=2, uri=uri)
    assert diags["version"] == 2 and diags["diagnostics"], diags
    assert all(d["severity"] == 1 and isinstance(d["code"], str) for d in diags["diagnostics"])
    # Requests on an unparseable buffer answer, never crash.
    r = client.call("textDocument/hover", {"textDocument": {"uri": uri},
                                           "position": {"line": 1, "character": 5}})
    assert "result" in r, r
    r = client.call("textDocument/completion", {"textDocument": {"uri": uri},
                                                "position": {"line": 1, "character": 4}})
    assert any(i["label"] == "let" for i in r["result"]["items"]), r
    # Closing clears the document's diagnostics.
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.waitDiagnostics(uri)["diagnostics"] == []
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testHalfTypedDeclaration():
    """A syntax error in one declaration leaves the others analysed: hover,
    definition and symbols work there, and uses of the broken one are not
    reported as unknown names."""
    client = LspClient(BLKC)
    initialize(client)
    uri = "file://" + os.path.join(WORKDIR, "half.blk")
    text = FIXED + """
fn helper(y) { return y * ; }

@grid(1)
kernel user(p: *f32) {
    store(p, helper(1.0));
}
"""
    diags = openDoc(client, text, uri=uri)["diagnostics"]
    messages = [d["message"] for d in diags]
    assert len(diags) == 1 and diags[0]["code"].startswith("parse_"), messages
    assert diags[0]["range"]["start"]["line"] == pos(text, "y * ;")["line"], diags
    h = hoverText(hover(client, text, "BLOCK + arange", uri=uri))
    assert "BLOCK=1024 → i32 = 1024" in h, h
    h = hoverText(hover(client, text, "mask: m2", delta=6, uri=uri))
    assert "i1[1024]" in h and "i1[256]" in h, h
    r = client.call("textDocument/definition", {"textDocument": {"uri": uri},
                                                "position": pos(text, "offsets < n")})
    assert r["result"]["range"]["start"] == pos(text, "offsets"), r
    r = client.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = {s["name"] for s in r["result"]}
    assert {"double_grid", "user"} <= names and "helper" not in names, names
    # Fixing the declaration brings it back.
    fixed = text.replace("y * ;", "y * 2.0;")
    assert change(client, fixed, version=2, uri=uri)["diagnostics"] == []
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testGarbageAndErrors():
    """Unknown methods, unknown documents, garbage frames: answered, never fatal."""
    client = LspClient(BLKC)
    r = client.call("textDocument/hover", {"textDocument": {"uri": URI},
                                           "position": {"line": 0, "character": 0}})
    assert r["error"]["code"] == -32002, r  # not initialized
    initialize(client)

    r = client.call("textDocument/frobnicate", {"x": 1})
    assert r["error"]["code"] == -32601, r
    client.notify("workspace/unknownNotification", {"x": 1})  # ignored silently

    r = client.call("textDocument/hover", {"textDocument": {"uri": "file:///nope.blk"},
                                           "position": {"line": 0, "character": 0}})
    assert "error" in r and "result" not in r, r
    r = client.call("textDocument/hover", {"textDocument": {"uri": URI}})
    assert r["error"]["code"] in (-32602, -32603), r
    r = client.call("textDocument/definition", {"textDocument": 7, "position": "x"})
    assert r["error"]["code"] == -32602, r

    client.sendRaw(b"this is not a header\r\n\r\n")
    r = client.receive()
    assert r["id"] is None and r["error"]["code"] == -32700, r
    client.sendRaw(b"Content-Length: 9\r\n\r\n{not json")
    r = client.receive()
    assert r["id"] is None and r["error"]["code"] == -32700, r
    client.sendRaw(b"Content-Length: zz\r\n\r\n")
    r = client.receive()
    assert r["error"]["code"] == -32700, r
    client.send([1, 2, 3])
    r = client.receive()
    assert r["error"]["code"] == -32600, r
    client.send({"jsonrpc": "2.0", "id": 99, "params": {}})
    r = client.receive()
    assert r["id"] == 99 and r["error"]["code"] == -32600, r
    client.sendRaw(bytes(range(256)) + b"\r\n\r\n")
    r = client.receive()
    assert r["error"]["code"] == -32700, r
    # Invalid UTF-8 and NUL bytes inside a document are diagnosed, not fatal.
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "blk", "version": 1, "text": "kernel k() { \u0000 }"}})
    assert client.waitDiagnostics(URI)["diagnostics"]
    client.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": FIXED}]}})
    assert client.waitDiagnostics(URI)["diagnostics"] == []

    # Still alive and answering.
    text = hoverText(hover(client, FIXED, "offsets < n"))
    assert "i32[1024]" in text, text
    assert client.call("shutdown")["result"] is None
    r = client.call("textDocument/hover", {"textDocument": {"uri": URI},
                                           "position": {"line": 0, "character": 0}})
    assert r["error"]["code"] == -32600, r  # after shutdown
    client.notify("exit")
    assert client.close() == 0


def testImports():
    """Imports resolve against the workspace root; navigation crosses files."""
    root = os.path.join(WORKDIR, "ws")
    os.makedirs(os.path.join(root, "mylib"), exist_ok=True)
    os.makedirs(os.path.join(root, "kernels"), exist_ok=True)
    libPath = os.path.join(root, "mylib", "act.blk")
    lib = "const K = 3;\nfn relu(x) {\n    return where(x > 0.0, x, 0.0);\n}\n"
    with open(libPath, "w") as f:
        f.write(lib)
    text = """import mylib.act as act;

@config(BLOCK = 128)
kernel k(x: *f32, out: *f32, n: i32, const BLOCK: i32) {
    let offsets = program_id(0) * BLOCK + arange(0, BLOCK);
    let v = load(x + offsets, mask: offsets < n, other: 0.0);
    let r = act.relu(v) * act.K;
    store(out + offsets, r, mask: offsets < n);
}
"""
    uri = "file://" + os.path.join(root, "kernels", "main.blk")
    client = LspClient(BLKC)
    initialize(client, root=root)
    assert openDoc(client, text, uri=uri)["diagnostics"] == []

    h = hoverText(hover(client, text, "relu(v)", delta=1, uri=uri))
    assert "fn relu(x)" in h and "this call returns: f32[128]" in h, h
    h = hoverText(hover(client, text, "K;", uri=uri))
    assert "act.K: i32 = 3" in h, h
    r = client.call("textDocument/definition", {"textDocument": {"uri": uri},
                                                "position": pos(text, "relu(v)", delta=1)})
    assert r["result"] == {"uri": "file://" + libPath, "range": {
        "start": {"line": 1, "character": 3}, "end": {"line": 1, "character": 7}}}, r
    r = client.call("textDocument/completion", {"textDocument": {"uri": uri},
                                                "position": pos(text, "relu(v)")})
    assert {i["label"] for i in r["result"]["items"]} == {"K", "relu"}, r

    # An error inside the imported module is shown on the import line.
    with open(libPath, "w") as f:
        f.write(lib.replace("0.0, x", "0.0 x"))
    diags = change(client, text + "\n", version=2, uri=uri)["diagnostics"]
    assert diags and diags[0]["range"]["start"]["line"] == 0, diags
    assert "act.blk" in diags[0]["message"], diags
    assert diags[0]["relatedInformation"][0]["location"]["uri"] == "file://" + libPath, diags
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testBurstIsCoalesced():
    """A burst of didChange is checked once, at its last version."""
    client = LspClient(BLKC)
    initialize(client)
    openDoc(client, FIXED)
    burst = b""
    for version in range(2, 12):
        text = "kernel k%d(x: *f32) { let a = 1; }\n" % version
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version},
            "contentChanges": [{"text": text}]}}).encode()
        burst += b"Content-Length: %d\r\n\r\n" % len(body) + body
    assert len(burst) < 4096  # one atomic pipe write
    client.sendRaw(burst)
    seen = []
    last = client.waitFor(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["version"] == 11, skipped=seen)
    assert len(seen) < 9, "expected coalescing, got %d intermediate publishes" % len(seen)
    assert [d["code"] for d in last["params"]["diagnostics"]] == ["sema_unused_let"] or \
        all(d["severity"] == 2 for d in last["params"]["diagnostics"]), last
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testFuzzNeverDies(seed=7):
    """Seeded random requests, notifications and frames: every request is answered."""
    import random
    rng = random.Random(seed)
    client = LspClient(BLKC)
    initialize(client)
    openDoc(client, FIXED)
    methods = ["textDocument/hover", "textDocument/definition", "textDocument/completion",
               "textDocument/documentSymbol", "textDocument/didOpen", "textDocument/didChange",
               "textDocument/didClose", "initialize", "workspace/symbol", "$/cancelRequest",
               "textDocument/semanticTokens/full", ""]
    texts = [FIXED, BROKEN, "", "kernel", "@config(", "fn f(x) { return f(x); }",
             "\u00e9\U0001F600 let", "{" * 300, "kernel k() { let x = arange(0, 3); }"]
    values = [None, 0, -1, 2 ** 40, 1.5, "x", [], {}, True, URI, "file:///nope.blk"]

    def position():
        return rng.choice([{"line": rng.randrange(0, 40), "character": rng.randrange(0, 80)},
                           {"line": -1, "character": 0}, {"line": 2 ** 33, "character": 2 ** 33},
                           {"line": "a"}, rng.choice(values)])

    def params():
        doc = rng.choice([{"uri": URI}, {"uri": rng.choice(values)}, rng.choice(values),
                          {"uri": URI, "version": rng.choice([1, "v", None]),
                           "text": rng.choice(texts)}])
        p = {"textDocument": doc, "position": position(),
             "contentChanges": rng.choice([[{"text": rng.choice(texts)}], [1], "x", [{
                 "range": {"start": position(), "end": position()}, "text": "y"}]])}
        return rng.choice([p, p, rng.choice(values)])

    pending = []
    for i in range(300):
        kind = rng.random()
        if kind < 0.1:
            client.sendRaw(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
                           + b"\r\n\r\n")
        elif kind < 0.55:
            pending.append(client.request(rng.choice(methods), params()))
        else:
            client.notify(rng.choice(methods), params())
    for rid in pending:
        r = client.waitResponse(rid, timeout=60)
        assert ("result" in r) != ("error" in r), r
    # Still serving real requests afterwards.
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "blk", "version": 100, "text": FIXED}})
    assert "i32[1024]" in hoverText(hover(client, FIXED, "offsets < n"))
    assert client.call("shutdown")["result"] is None
    client.notify("exit")
    assert client.close() == 0, client.stderr[-2000:]


def testInvalidUtf8IsRepaired():
    """Bytes that are not UTF-8 in a buffer become U+FFFD before JSON
    parsing: the document opens and the lexer's diagnostic points at them."""
    client = LspClient(BLKC)
    initialize(client)
    uri = "file://" + os.path.join(WORKDIR, "bytes.blk")
    text = FIXED.replace("    let m2 =", "    let z = 1; /* ok */ @@BAD@@ let m2 =")
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "blk", "version": 1, "text": text}}})
    # Two raw bytes that start no UTF-8 sequence, where the marker was.
    raw = body.encode().replace(b"@@BAD@@", b"\xff\xfe")
    client.sendRaw(b"Content-Length: %d\r\n\r\n" % len(raw) + raw)
    diags = client.waitDiagnostics(uri)["diagnostics"]
    assert diags, "the buffer must be checked"
    line = [i for i, l in enumerate(text.split("\n")) if "/* ok */" in l][0]
    column = len("    let z = 1; /* ok */ ")
    bad = [d for d in diags if d["code"].startswith("lex_")]
    assert bad, diags
    assert bad[0]["range"]["start"] == {"line": line, "character": column}, bad
    # The document is alive: a change is checked (a document the JSON layer
    # had rejected would ignore it) and hover answers.
    assert change(client, FIXED, version=2, uri=uri)["diagnostics"] == []
    h = hoverText(hover(client, FIXED, "offsets < n", uri=uri))
    assert "i32[1024]" in h, h
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testOversizedMessage():
    """A Content-Length beyond 64 MiB is an error response, and the messages
    after it are still read (the body is not awaited)."""
    client = LspClient(BLKC)
    initialize(client)
    client.sendRaw(b"Content-Length: 104857600\r\n\r\n{\"jsonrpc\":\"2.0\"}")
    rid = client.request("textDocument/hover", {"textDocument": {"uri": "file:///none.blk"},
                                                "position": {"line": 0, "character": 0}})
    r = client.receive(timeout=10)
    assert r["id"] is None and r["error"]["code"] == -32700, r
    assert "104857600 bytes is larger than the 64 MiB" in r["error"]["message"], r
    r = client.waitResponse(rid, timeout=10)
    assert "unknown document" in r["error"]["message"], r
    assert client.call("shutdown")["result"] is None
    client.notify("exit")
    assert client.close() == 0


# A kernel with a statement being typed (`let y = offsets +`): the parser
# drops the whole declaration.
HALF_TYPED = FIXED.replace("    store(out + offsets", "    let y = offsets + ;\n    store(out + offsets")


def testLastGoodFallback():
    """Hover, definition, completion and the outline inside a declaration
    that does not parse come from its last good analysis, mapped through
    the edit."""
    client = LspClient(BLKC)
    initialize(client)
    uri = "file://" + os.path.join(WORKDIR, "typing.blk")
    prefix = "// a comment line that the edit shifts everything below\n"
    assert openDoc(client, FIXED, uri=uri)["diagnostics"] == []
    # Two edits since the last good version, at two places: the statement,
    # then a line above the kernel that shifts it down.
    diags = change(client, HALF_TYPED, version=2, uri=uri)["diagnostics"]
    assert diags and all(d["code"].startswith("parse_") for d in diags), diags
    text = prefix + HALF_TYPED
    assert change(client, text, version=3, uri=uri)["diagnostics"]

    h = hover(client, text, "offsets < n", uri=uri)
    assert "i32[1024]" in hoverText(h) and "i32[256]" in hoverText(h), h
    # The range is the use in the current text (one line further down).
    assert h["range"]["start"] == pos(text, "offsets < n"), (h["range"], pos(text, "offsets < n"))
    r = client.call("textDocument/definition", {"textDocument": {"uri": uri},
                                                "position": pos(text, "offsets < n")})
    assert r["result"]["uri"] == uri and r["result"]["range"]["start"] == pos(text, "offsets"), r
    # Completion on the half-typed line sees the kernel's locals.
    r = client.call("textDocument/completion", {"textDocument": {"uri": uri},
                                                "position": pos(text, "offsets +", delta=9)})
    labels = {i["label"] for i in r["result"]["items"]}
    assert {"offsets", "mask", "v", "m2", "BLOCK"} <= labels, labels
    # The outline keeps the kernel, at its current place.
    r = client.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    symbols = {s["name"]: s for s in r["result"]}
    assert "double_grid" in symbols, symbols
    assert symbols["double_grid"]["selectionRange"]["start"] == pos(text, "double_grid"), symbols
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testImportsFromOpenBuffers():
    """An open module's unsaved text is what importers see, and importers are
    re-checked when it changes, is saved or is closed."""
    root = os.path.join(WORKDIR, "overlay")
    os.makedirs(os.path.join(root, "lib"), exist_ok=True)
    libPath = os.path.join(root, "lib", "ops.blk")
    onDisk = "fn triple(x) {\n    return x * 3.0;\n}\n"
    with open(libPath, "w") as f:
        f.write(onDisk)
    libUri = "file://" + libPath
    mainUri = "file://" + os.path.join(root, "main.blk")
    main = """import lib.ops as ops;

@grid(1)
kernel k(p: *f32) {
    store(p, ops.quadruple(1.0));
}
"""
    client = LspClient(BLKC)
    initialize(client, root=root)
    # From disk, `quadruple` does not exist.
    diags = openDoc(client, main, uri=mainUri)["diagnostics"]
    assert any("quadruple" in d["message"] for d in diags), diags
    # Opening the module with it (unsaved) re-checks the importer.
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": libUri, "languageId": "blk", "version": 1,
        "text": onDisk + "fn quadruple(x) {\n    return x * 4.0;\n}\n"}})
    seen = {}
    while len(seen) < 2:
        d = client.waitFor(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        seen[d["params"]["uri"]] = d["params"]["diagnostics"]
    assert seen[mainUri] == [] and seen[libUri] == [], seen
    # Breaking the module in the buffer re-checks the importer.
    client.notify("textDocument/didChange", {"textDocument": {"uri": libUri, "version": 2},
                                             "contentChanges": [{"text": onDisk}]})
    d = client.waitDiagnostics(mainUri)
    assert any("quadruple" in x["message"] for x in d["diagnostics"]), d
    # Back in the buffer, then closed: the importer reads the disk again.
    client.notify("textDocument/didChange", {"textDocument": {"uri": libUri, "version": 3},
                                             "contentChanges": [{"text": onDisk + "fn quadruple(x) { return x; }\n"}]})
    assert client.waitDiagnostics(mainUri)["diagnostics"] == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": libUri}})
    d = client.waitDiagnostics(mainUri)
    assert any("quadruple" in x["message"] for x in d["diagnostics"]), d
    # A change on disk, announced by the client, re-checks it as well.
    with open(libPath, "w") as f:
        f.write(onDisk + "fn quadruple(x) { return x; }\n")
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": libUri, "type": 2}]})
    assert client.waitDiagnostics(mainUri)["diagnostics"] == []
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testOneDiagnosticForSeveralConfigs():
    """A mistake failing in several @configs is one diagnostic whose one
    note lists them (at the first), as `blkc check` prints it; one failing
    in every config says so."""
    text = """@config(BLOCK = 64)
@config(BLOCK = 16)
@config(BLOCK = 8, num_warps = 1)
kernel some(x: *f32, const BLOCK: i32) {
    static_assert(BLOCK >= 32, "BLOCK too small");
    store(x + arange(0, BLOCK), 1.0);
}

@config(BLOCK = 16)
@config(BLOCK = 8)
kernel every(x: *f32, const BLOCK: i32) {
    static_assert(BLOCK >= 32, "BLOCK too small");
    store(x + arange(0, BLOCK), 1.0);
}
"""
    uri = "file://" + os.path.join(WORKDIR, "configs.blk")
    client = LspClient(BLKC)
    initialize(client)
    got = openDoc(client, text, uri=uri)["diagnostics"]
    assert [d["code"] for d in got] == ["sema_static_assert_failed"] * 2, got
    some, every = got
    assert some["range"]["start"] == pos(text, "BLOCK >= 32"), some
    assert some["message"] == "static assertion failed: BLOCK too small", some
    assert some["relatedInformation"] == [{
        "location": {"uri": uri, "range": {"start": {"line": 1, "character": 0},
                                           "end": {"line": 1, "character": 19}}},
        "message": "in `@config(BLOCK = 16)` and `@config(BLOCK = 8, num_warps = 1)`"}], some
    assert every["range"]["start"] == pos(text, "BLOCK >= 32", nth=1), every
    assert every["message"] == ("static assertion failed: BLOCK too small\n"
                                "note: in every `@config`"), every
    assert "relatedInformation" not in every, every
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0, client.stderr


def testEditsReuseUnchangedKernels():
    """After an edit, the kernels that did not change keep their diagnostics
    (not analysed again) and a request still sees their facts: hover in a
    kept kernel, in a fn, references in every kernel."""
    def source(body):
        return """fn twice(y) { return y * 2.0; }

@grid(1)
kernel a(p: *f32) {
    let va = arange(0, 16);
    store(p + va, twice(1.0));
}

@grid(1)
kernel b(p: *f32) {
    let vb = arange(0, %s);
    store(p + vb, twice(2.0));
}
""" % body
    client = LspClient(BLKC)
    initialize(client)
    ok = source("32")
    assert openDoc(client, ok)["diagnostics"] == []
    bad = source("12")
    d = change(client, bad, 2)["diagnostics"]
    assert len(d) == 1 and d[0]["range"]["start"]["line"] == 10, d
    # A line added in `a`: `b` is kept, its error moved down a line.
    grow = lambda t: t.replace("kernel a(p: *f32) {\n", "kernel a(p: *f32) {\n\n")
    d = change(client, grow(bad), 3)["diagnostics"]
    assert len(d) == 1 and d[0]["range"]["start"]["line"] == 11, d
    text = grow(ok)
    assert change(client, text, 4)["diagnostics"] == []
    # `a` was kept from an earlier check: its facts come when asked.
    h = hoverText(hover(client, text, "va =", delta=0))
    assert "i32[16]" in h, h
    h = hoverText(hover(client, text, "y * 2.0", delta=0))
    assert "f32" in h, h
    r = client.call("textDocument/references", {"textDocument": {"uri": URI},
                    "position": pos(text, "twice", 0), "context": {"includeDeclaration": True}})
    assert len(r["result"]) == 3, r
    client.call("shutdown")
    client.notify("exit")
    assert client.close() == 0


def testExitCodes():
    """exit without shutdown, and end of input, give exit code 1."""
    client = LspClient(BLKC)
    initialize(client)
    client.notify("exit")
    assert client.close() == 1
    client = LspClient(BLKC)
    assert client.close() == 1


def main():
    tests = [testMainConversation, testFeatures, testAutotuneAttributes, testUtf16AndUnparseable, testHalfTypedDeclaration,
             testGarbageAndErrors, testImports, testBurstIsCoalesced, testFuzzNeverDies,
             testInvalidUtf8IsRepaired, testOversizedMessage, testLastGoodFallback,
             testImportsFromOpenBuffers, testOneDiagnosticForSeveralConfigs,
             testEditsReuseUnchangedKernels, testExitCodes]
    passed = failed = 0
    for test in tests:
        try:
            test()
            print("PASS", test.__name__)
            passed += 1
        except Exception:  # report every failing test, not just the first
            print("FAIL", test.__name__)
            traceback.print_exc()
            failed += 1
    shutil.rmtree(WORKDIR, ignore_errors=True)
    print("lsp: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
