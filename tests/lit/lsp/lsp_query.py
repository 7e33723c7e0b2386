#!/usr/bin/env python3
"""Runs one LSP request on a .blk file through `blkc lsp` and prints the
answer as plain lines for FileCheck. Positions are written as the text at
the cursor with a `|` where the cursor is: 'load(x + |offsets'. The first
occurrence (with the `|` removed) counts; `#N` after it picks the Nth.

Usage: lsp_query.py BLKC FILE REQUEST [ARGS...]
  inlay                       textDocument/inlayHint over the whole file
  signature POS               textDocument/signatureHelp
  references POS              textDocument/references (declaration included)
  rename POS NEWNAME          textDocument/rename
  actions                     textDocument/codeAction over the whole file
  tokens                      textDocument/semanticTokens/full, decoded
  format                      textDocument/formatting, the edits applied
  symbols QUERY [FILE...]     workspace/symbol, FILE... opened first too
Lines are 1-based and columns 1-based (UTF-16 units + 1), like blkc's.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import LspClient  # noqa: E402


def position(text, spec):
    nth = 0
    if "#" in spec and spec.rsplit("#", 1)[1].isdigit():
        spec, n = spec.rsplit("#", 1)
        nth = int(n) - 1
    before, _, after = spec.partition("|")
    needle = before + after
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += len(before)
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    lineText = text.split("\n")[line]
    return {"line": line, "character": len(lineText[:col].encode("utf-16-le")) // 2}


def show(pos):
    return "%d:%d" % (pos["line"] + 1, pos["character"] + 1)


def showRange(r):
    return "%s-%s" % (show(r["start"]), show(r["end"]))


def offsetOf(text, pos):
    lines = text.split("\n")
    units = lines[pos["line"]].encode("utf-16-le")[:2 * pos["character"]]
    return sum(len(l) + 1 for l in lines[:pos["line"]]) + len(units.decode("utf-16-le"))


def applyEdits(text, edits):
    for e in sorted(edits, key=lambda e: offsetOf(text, e["range"]["start"]), reverse=True):
        b, end = offsetOf(text, e["range"]["start"]), offsetOf(text, e["range"]["end"])
        text = text[:b] + e["newText"] + text[end:]
    return text


def main():
    blkc, path, request, *args = sys.argv[1:]
    path = os.path.abspath(path)
    text = open(path, encoding="utf-8").read()
    uri = "file://" + path
    client = LspClient(blkc)
    init = client.call("initialize", {"processId": os.getpid(), "capabilities": {},
                                      "rootUri": "file://" + os.path.dirname(path)})
    caps = init["result"]["capabilities"]
    client.notify("initialized", {})
    extra = args[1:] if request == "symbols" else []
    for p in [path] + [os.path.abspath(a) for a in extra]:
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": "file://" + p, "languageId": "blk", "version": 1,
            "text": open(p, encoding="utf-8").read()}})
        client.waitDiagnostics("file://" + p)
    doc = {"uri": uri}
    end = {"line": text.count("\n") + 1, "character": 0}
    whole = {"start": {"line": 0, "character": 0}, "end": end}
    out = []
    if request == "inlay":
        assert caps.get("inlayHintProvider"), caps
        r = client.call("textDocument/inlayHint", {"textDocument": doc, "range": whole})
        for h in r["result"]:
            tip = h.get("tooltip")
            tip = tip["value"] if isinstance(tip, dict) else tip
            out.append("hint %s %s kind=%s" % (show(h["position"]), json.dumps(h["label"]),
                                               h.get("kind")))
            if tip:
                out += ["  " + l for l in tip.split("\n")]
    elif request == "signature":
        assert caps.get("signatureHelpProvider"), caps
        r = client.call("textDocument/signatureHelp",
                        {"textDocument": doc, "position": position(text, args[0])})
        res = r["result"]
        if res is None:
            out.append("no signature")
        else:
            for i, s in enumerate(res["signatures"]):
                params = [p["label"] for p in s.get("parameters", [])]
                out.append("signature%s %s" % ("*" if i == res.get("activeSignature", 0) else "",
                                               s["label"]))
                out.append("  params %s" % json.dumps(params, ensure_ascii=False))
                if "documentation" in s:
                    doc_ = s["documentation"]
                    out.append("  doc " + (doc_["value"] if isinstance(doc_, dict) else doc_))
            out.append("active parameter %s" % res.get("activeParameter"))
    elif request == "references":
        assert caps.get("referencesProvider"), caps
        r = client.call("textDocument/references", {
            "textDocument": doc, "position": position(text, args[0]),
            "context": {"includeDeclaration": True}})
        if "error" in r:
            out.append("error %s" % r["error"]["message"])
        for loc in r.get("result") or []:
            out.append("ref %s %s" % (os.path.basename(loc["uri"]), showRange(loc["range"])))
    elif request == "rename":
        assert caps.get("renameProvider"), caps
        pos = position(text, args[0])
        prep = client.call("textDocument/prepareRename", {"textDocument": doc, "position": pos})
        if prep.get("result"):
            out.append("prepare %s" % showRange(prep["result"]["range"]
                                                if "range" in prep["result"] else prep["result"]))
        r = client.call("textDocument/rename", {"textDocument": doc, "position": pos,
                                                "newName": args[1]})
        if "error" in r:
            out.append("error %s" % r["error"]["message"])
        else:
            for u, edits in sorted(r["result"]["changes"].items()):
                for e in edits:
                    out.append("edit %s %s %s" % (os.path.basename(u), showRange(e["range"]),
                                                  json.dumps(e["newText"])))
                if u == uri:
                    out.append("--- renamed")
                    out += applyEdits(text, edits).rstrip("\n").split("\n")
    elif request == "actions":
        assert caps.get("codeActionProvider"), caps
        r = client.call("textDocument/codeAction", {"textDocument": doc, "range": whole,
                                                    "context": {"diagnostics": []}})
        for a in r["result"]:
            out.append("action %s kind=%s preferred=%s" % (json.dumps(a["title"]), a.get("kind"),
                                                           a.get("isPreferred")))
            for d in a.get("diagnostics", []):
                out.append("  fixes %s %s" % (d["code"], showRange(d["range"])))
            for u, edits in a["edit"]["changes"].items():
                for e in edits:
                    out.append("  edit %s %s" % (showRange(e["range"]), json.dumps(e["newText"])))
    elif request == "tokens":
        legend = caps["semanticTokensProvider"]["legend"]
        r = client.call("textDocument/semanticTokens/full", {"textDocument": doc})
        data = r["result"]["data"]
        line = col = 0
        lines = text.split("\n")
        for i in range(0, len(data), 5):
            dl, dc, length, typ, mods = data[i:i + 5]
            line += dl
            col = col + dc if dl == 0 else dc
            units = lines[line].encode("utf-16-le")
            word = units[2 * col:2 * (col + length)].decode("utf-16-le")
            names = [m for b, m in enumerate(legend["tokenModifiers"]) if mods >> b & 1]
            out.append("token %d:%d %s %s%s" % (line + 1, col + 1, word,
                                                 legend["tokenTypes"][typ],
                                                 "".join(" +" + m for m in names)))
    elif request == "format":
        assert caps.get("documentFormattingProvider"), caps
        r = client.call("textDocument/formatting", {
            "textDocument": doc, "options": {"tabSize": 4, "insertSpaces": True}})
        if "error" in r:
            out.append("error %s" % r["error"]["message"])
        else:
            out += applyEdits(text, r["result"]).rstrip("\n").split("\n")
    elif request == "symbols":
        assert caps.get("workspaceSymbolProvider"), caps
        r = client.call("workspace/symbol", {"query": args[0]})
        for s in r["result"]:
            loc = s["location"]
            out.append("symbol %s kind=%d %s %s%s" % (
                s["name"], s["kind"], os.path.basename(loc["uri"]), showRange(loc["range"]),
                " in " + s["containerName"] if s.get("containerName") else ""))
    else:
        sys.exit("unknown request " + request)
    print("\n".join(out))
    client.call("shutdown")
    client.notify("exit")
    return client.close()


if __name__ == "__main__":
    sys.exit(main())
