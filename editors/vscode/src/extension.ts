// VS Code client for the blk language server: starts `<blk.serverPath> lsp`
// over stdio and forwards `.blk` documents to it. No `transport` option: with
// one, vscode-languageclient appends `--stdio` to the command line, and an
// Executable without it already talks over the child's stdin/stdout. All language knowledge lives
// in blkc; this file only wires the process up and restarts it when the
// settings change.
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/// Builds the server command line from the `blk.*` settings.
function serverOptions(): ServerOptions {
  const config = vscode.workspace.getConfiguration('blk');
  const command = config.get<string>('serverPath', 'blkc') || 'blkc';
  const extraArgs = config.get<string[]>('serverArgs', []);
  return {
    command,
    args: ['lsp', ...extraArgs],
  };
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'blk' },
      { scheme: 'untitled', language: 'blk' },
    ],
    outputChannelName: 'blk language server',
  };
  client = new LanguageClient('blk', 'blk language server', serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    const path = vscode.workspace.getConfiguration('blk').get<string>('serverPath', 'blkc');
    void vscode.window.showErrorMessage(
      `blk: could not start \`${path} lsp\` (set "blk.serverPath"): ${String(err)}`);
  }
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

async function restartClient(context: vscode.ExtensionContext): Promise<void> {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => undefined);
  }
  await startClient(context);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('blk.restartServer', () => restartClient(context)),
    // A new server path or argument list only takes effect in a new process.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('blk.serverPath') || e.affectsConfiguration('blk.serverArgs')) {
        void restartClient(context);
      }
    }),
  );
  await startClient(context);
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
