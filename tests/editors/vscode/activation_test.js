// Runs the packaged VS Code extension's real activate() with its bundled
// vscode-languageclient against a real `blkc lsp`, with vscode_mock.js as
// the `vscode` module, and checks that
//   - blkc is started as `<blk.serverPath> lsp` (no `--stdio`: the client
//     adds it only when a transport is named),
//   - the server initialised (the client registered the providers blkc
//     advertises, and no error message was shown),
//   - a bad document gets blkc's diagnostic at the right range, and a hover
//     request goes through,
//   - deactivate() shuts the server down cleanly (exit code 0).
// Usage: node activation_test.js <extension-dir> <blkc> <work-dir>
'use strict';
const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const Module = require('module');
const path = require('path');

const [extDir, blkc, workDir] = process.argv.slice(2);
if (!extDir || !blkc || !workDir) {
  console.error('usage: node activation_test.js <extension-dir> <blkc> <work-dir>');
  process.exit(2);
}
const kTimeoutMs = 60000;
setTimeout(() => {
  console.error('FAIL: timed out after', kTimeoutMs / 1000, 's');
  process.exit(1);
}, kTimeoutMs).unref();

// `require('vscode')` from the extension and from its node_modules.
const mockPath = path.join(__dirname, 'vscode_mock.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? mockPath : resolve.call(this, request, ...rest);
};
const vscode = require('vscode');
const mock = vscode.__mock;

// Record every process the client starts, and keep the real spawn.
const spawned = [];
const realSpawn = childProcess.spawn;
childProcess.spawn = function (command, args, options) {
  const child = realSpawn.call(this, command, args, options);
  const entry = { command, args: [...(args || [])], child, exitCode: undefined };
  child.on('exit', (code) => (entry.exitCode = code));
  spawned.push(entry);
  return child;
};

function waitFor(what, predicate, timeoutMs = 20000) {
  return new Promise((resolveP, reject) => {
    const started = Date.now();
    const poll = () => {
      const v = predicate();
      if (v) return resolveP(v);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out waiting for ' + what));
      setTimeout(poll, 20);
    };
    poll();
  });
}

async function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(extDir, 'package.json'), 'utf8'));
  const serverPath = manifest.contributes.configuration.properties['blk.serverPath'];
  assert.strictEqual(serverPath.scope, 'machine-overridable', 'blk.serverPath scope');
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('blk.serverPath'));

  mock.settings.blk = { serverPath: blkc, serverArgs: [] };
  const ext = require(path.resolve(extDir, manifest.main));
  const context = { subscriptions: [], extensionPath: extDir, extensionUri: vscode.Uri.file(extDir) };
  await ext.activate(context);

  assert.deepStrictEqual(mock.recorded.messages, [], 'no message shown during activation');
  const servers = spawned.filter((s) => s.command === blkc);
  assert.strictEqual(servers.length, 1, 'one blkc process: ' + JSON.stringify(spawned.map((s) => s.args)));
  assert.deepStrictEqual(servers[0].args, ['lsp'], 'blkc command line');
  assert.strictEqual(servers[0].exitCode, undefined, 'blkc still running after activation');
  console.log('PASS started:', blkc, servers[0].args.join(' '));

  // The client registers providers only for capabilities from `initialize`.
  const kinds = new Set(mock.recorded.providers.map((p) => p.kind));
  for (const kind of ['HoverProvider', 'DefinitionProvider', 'DocumentSymbolProvider', 'CompletionItemProvider']) {
    assert.ok(kinds.has(kind), `no ${kind} registered; got ${[...kinds].join(', ')}`);
  }
  console.log('PASS initialized:', [...kinds].sort().join(', '));

  const file = path.join(workDir, 'bad.blk');
  const text = 'kernel k(out: *f32) {\n    let x = arange(0, 3);\n    store(out, 1.0);\n}\n';
  fs.writeFileSync(file, text);
  const doc = mock.openDocument(file, 'blk', text);
  const uri = doc.uri.toString();
  const diags = await waitFor('diagnostics for ' + uri, () => {
    const d = mock.recorded.diagnostics.get(uri);
    return d && d.length ? d : undefined;
  });
  const arange = diags.find((d) => /power of two/.test(d.message));
  assert.ok(arange, 'the arange diagnostic: ' + JSON.stringify(diags.map((d) => d.message)));
  assert.strictEqual(arange.severity, vscode.DiagnosticSeverity.Error);
  assert.strictEqual(arange.range.start.line, 1);
  assert.strictEqual(arange.range.start.character, text.split('\n')[1].indexOf('arange'));
  assert.strictEqual(arange.source, 'blkc');
  console.log('PASS diagnostics:', arange.message);

  const hover = mock.recorded.providers.find((p) => p.kind === 'HoverProvider').provider;
  const token = new vscode.CancellationTokenSource().token;
  const h = await hover.provideHover(doc, new vscode.Position(2, 4), token);
  const hoverText = h.contents.map((c) => c.value ?? String(c)).join('\n');
  assert.ok(hoverText.includes('store('), 'hover over store: ' + hoverText);
  console.log('PASS hover:', hoverText.split('\n').find((l) => l.includes('store(')));

  await ext.deactivate();
  await waitFor('blkc to exit', () => servers[0].exitCode !== undefined);
  assert.strictEqual(servers[0].exitCode, 0, 'blkc exit code after shutdown + exit');
  console.log('PASS stopped: exit code 0');
  for (const d of context.subscriptions) d.dispose?.();
}

main().then(
  () => {
    console.log('vscode activation test: PASS');
    process.exit(0);
  },
  (err) => {
    console.error('FAIL:', err && err.stack ? err.stack : err);
    console.error('client output:\n' + vscode.__mock.recorded.outputLines.slice(-40).join('\n'));
    process.exit(1);
  });
