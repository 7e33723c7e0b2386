// A stand-in for the `vscode` module, enough for vscode-languageclient 9 to
// start a server, sync documents and deliver diagnostics outside VS Code.
// The real client code runs unchanged; this module only records what it
// asks the editor to do (diagnostic collections, registered providers,
// messages shown) so activation_test.js can assert on it.
//
// Value types (Uri, Position, Range, Diagnostic, ...) are real classes with
// the fields the client's converters read and write. Anything else the
// client touches but the test does not care about (most register*Provider
// calls, rare enums) resolves through `auto()`: a callable, constructible
// placeholder, so new client versions fail only on what matters.
'use strict';
const path = require('path');
const { EventEmitter: NodeEmitter } = require('events');

/// Everything the client did through the mock, for the test to inspect.
const recorded = {
  diagnostics: new Map(), // uri string -> Diagnostic[] (latest set)
  diagnosticEvents: new NodeEmitter(),
  providers: [], // { kind, selector, provider }
  messages: [], // { level, text }
  commands: new Map(),
  outputLines: [],
};

/// A placeholder that can be called, constructed and read at any depth.
function auto(name) {
  const fn = function () {
    return auto(name + '()');
  };
  return new Proxy(fn, {
    get(target, prop) {
      if (prop === Symbol.toPrimitive) return () => 0;
      if (prop === 'then') return undefined; // never a thenable
      if (prop === 'dispose') return () => undefined;
      if (prop in target) return target[prop];
      return auto(name + '.' + String(prop));
    },
    construct() {
      return { dispose() {} };
    },
  });
}

class Disposable {
  constructor(callOnDispose) {
    this._fn = callOnDispose;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this._fn) this._fn();
    this._fn = undefined;
  }
}

class EventEmitter {
  constructor() {
    this._listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const bound = thisArg ? listener.bind(thisArg) : listener;
      this._listeners.add(bound);
      const d = new Disposable(() => this._listeners.delete(bound));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(value) {
    for (const l of [...this._listeners]) l(value);
  }
  dispose() {
    this._listeners.clear();
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    this.token.isCancellationRequested = true;
    this._emitter.fire(undefined);
  }
  dispose() {}
}

class CancellationError extends Error {}

class Uri {
  constructor(scheme, authority, p, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || '';
    this.path = p || '';
    this.query = query || '';
    this.fragment = fragment || '';
  }
  static file(p) {
    return new Uri('file', '', path.resolve(p));
  }
  static parse(s) {
    const m = /^([a-zA-Z][\w+.-]*):(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/.exec(s);
    if (!m) throw new Error('mock vscode: cannot parse URI ' + s);
    return new Uri(m[1], m[3], decodeURIComponent(m[4]), m[6], m[8]);
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority,
      change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString() {
    const encoded = this.path.split('/').map(encodeURIComponent).join('/');
    return `${this.scheme}:` + (this.scheme === 'file' || this.authority ? `//${this.authority}` : '') +
      encoded + (this.query ? `?${this.query}` : '') + (this.fragment ? `#${this.fragment}` : '');
  }
  toJSON() {
    return this.toString();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (a instanceof Position || (a && typeof a.line === 'number' && c === undefined)) {
      this.start = a;
      this.end = b;
    } else {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    }
  }
  get isEmpty() {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

class Location {
  constructor(uri, rangeOrPosition) {
    this.uri = uri;
    this.range = rangeOrPosition;
  }
}

const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 };

class Diagnostic {
  constructor(range, message, severity) {
    this.range = range;
    this.message = message;
    this.severity = severity ?? DiagnosticSeverity.Error;
  }
}

class DiagnosticRelatedInformation {
  constructor(location, message) {
    this.location = location;
    this.message = message;
  }
}

class MarkdownString {
  constructor(value, supportThemeIcons) {
    this.value = value || '';
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(t) {
    this.value += t;
    return this;
  }
  appendMarkdown(t) {
    this.value += t;
    return this;
  }
  appendCodeblock(code, lang) {
    this.value += '\n```' + (lang || '') + '\n' + code + '\n```\n';
    return this;
  }
}

class Hover {
  constructor(contents, range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
    this.range = range;
  }
}

/// What languages.createDiagnosticCollection returns: records every set().
function createDiagnosticCollection(name) {
  const own = new Map();
  return {
    name,
    set(uri, diags) {
      const key = uri.toString();
      own.set(key, diags || []);
      recorded.diagnostics.set(key, diags || []);
      recorded.diagnosticEvents.emit('set', key, diags || []);
    },
    delete(uri) {
      own.delete(uri.toString());
      recorded.diagnostics.delete(uri.toString());
    },
    clear() {
      for (const k of own.keys()) recorded.diagnostics.delete(k);
      own.clear();
    },
    forEach(cb) {
      own.forEach((v, k) => cb(Uri.parse(k), v, this));
    },
    get(uri) {
      return own.get(uri.toString());
    },
    has(uri) {
      return own.has(uri.toString());
    },
    dispose() {
      this.clear();
    },
  };
}

/// A read-only text document over `text` (LF line ends).
function createTextDocument(uri, languageId, version, text) {
  const lines = text.split('\n');
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return {
    uri,
    fileName: uri.fsPath,
    isUntitled: uri.scheme === 'untitled',
    languageId,
    version,
    isDirty: false,
    isClosed: false,
    eol: 1,
    lineCount: lines.length,
    getText(range) {
      if (!range) return text;
      return text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    },
    offsetAt(p) {
      const line = Math.min(p.line, starts.length - 1);
      return Math.min(starts[line] + p.character, text.length);
    },
    positionAt(offset) {
      let line = 0;
      while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
      return new Position(line, offset - starts[line]);
    },
    lineAt(n) {
      const line = typeof n === 'number' ? n : n.line;
      return { lineNumber: line, text: lines[line], range: new Range(line, 0, line, lines[line].length) };
    },
    save: async () => true,
  };
}

/// `languages.match`: the score of `selector` for `doc` (0 = no match).
function match(selector, doc) {
  const sels = Array.isArray(selector) ? selector : [selector];
  let best = 0;
  for (const s of sels) {
    if (typeof s === 'string') {
      if (s === doc.languageId || s === '*') best = Math.max(best, 10);
      continue;
    }
    if (s.language && s.language !== doc.languageId && s.language !== '*') continue;
    if (s.scheme && s.scheme !== doc.uri.scheme && s.scheme !== '*') continue;
    if (s.pattern) continue; // the blk selector never uses patterns
    best = Math.max(best, 10);
  }
  return best;
}

const onDidOpenTextDocument = new EventEmitter();
const onDidChangeTextDocument = new EventEmitter();
const onDidCloseTextDocument = new EventEmitter();
const onDidSaveTextDocument = new EventEmitter();
const onDidChangeConfiguration = new EventEmitter();
const textDocuments = [];

/// Settings the test sets before activation: section -> key -> value.
const settings = {};

function getConfiguration(section) {
  const lookup = (key) => {
    const full = section ? `${section}.${key}` : key;
    const dot = full.indexOf('.');
    const sec = dot < 0 ? full : full.slice(0, dot);
    const k = dot < 0 ? undefined : full.slice(dot + 1);
    const values = settings[sec] || {};
    return k === undefined ? values : values[k];
  };
  return {
    get(key, def) {
      const v = lookup(key);
      return v === undefined ? def : v;
    },
    has(key) {
      return lookup(key) !== undefined;
    },
    inspect() {
      return undefined;
    },
    update: async () => undefined,
  };
}

function outputChannel(name) {
  const append = (t) => recorded.outputLines.push(`[${name}] ${t}`);
  return {
    name,
    append,
    appendLine: append,
    replace: append,
    clear() {},
    show() {},
    hide() {},
    dispose() {},
    trace: append,
    debug: append,
    info: append,
    warn: append,
    error: append,
    logLevel: 2,
    onDidChangeLogLevel: new EventEmitter().event,
  };
}

/// languages.registerXxxProvider(selector, provider, ...): recorded.
const languages = new Proxy(
  { createDiagnosticCollection, match, getLanguages: async () => ['blk'] },
  {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (typeof prop === 'string' && prop.startsWith('register')) {
        return (selector, provider, ...rest) => {
          recorded.providers.push({ kind: prop.slice('register'.length), selector, provider, rest });
          return new Disposable();
        };
      }
      return auto('languages.' + String(prop));
    },
  });

const show = (level) => async (text) => {
  recorded.messages.push({ level, text });
  return undefined;
};

const workspace = new Proxy(
  {
    getConfiguration,
    textDocuments,
    workspaceFolders: undefined,
    notebookDocuments: [],
    onDidOpenTextDocument: onDidOpenTextDocument.event,
    onDidChangeTextDocument: onDidChangeTextDocument.event,
    onDidCloseTextDocument: onDidCloseTextDocument.event,
    onDidSaveTextDocument: onDidSaveTextDocument.event,
    onDidChangeConfiguration: onDidChangeConfiguration.event,
    getWorkspaceFolder: () => undefined,
  },
  {
    get(target, prop) {
      if (prop in target) return target[prop];
      // onWillSave, onDidCreateFiles, createFileSystemWatcher, ...: unused.
      if (typeof prop === 'string' && prop.startsWith('on')) return new EventEmitter().event;
      return auto('workspace.' + String(prop));
    },
  });

const window = new Proxy(
  {
    createOutputChannel: outputChannel,
    showErrorMessage: show('error'),
    showWarningMessage: show('warning'),
    showInformationMessage: show('info'),
    activeTextEditor: undefined,
    visibleTextEditors: [],
    onDidChangeActiveTextEditor: new EventEmitter().event,
    tabGroups: { all: [], onDidChangeTabs: new EventEmitter().event },
    withProgress: async (_opts, task) => task({ report() {} }, new CancellationTokenSource().token),
  },
  {
    get(target, prop) {
      if (prop in target) return target[prop];
      return auto('window.' + String(prop));
    },
  });

const commands = {
  registerCommand(id, fn) {
    recorded.commands.set(id, fn);
    return new Disposable(() => recorded.commands.delete(id));
  },
  executeCommand: async (id, ...args) => recorded.commands.get(id)?.(...args),
};

const explicit = {
  version: '1.82.0',
  env: { appName: 'blk-mock', language: 'en', machineId: 'mock', openExternal: async () => true },
  Uri, Position, Range, Location, Disposable, EventEmitter, CancellationTokenSource,
  CancellationError, Diagnostic, DiagnosticSeverity, DiagnosticTag, DiagnosticRelatedInformation,
  MarkdownString, Hover, languages, workspace, window, commands,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  // Test-side helpers (not part of the vscode API).
  __mock: {
    recorded,
    settings,
    /// Adds a document and fires onDidOpenTextDocument, as VS Code does.
    openDocument(filePath, languageId, text) {
      const doc = createTextDocument(Uri.file(filePath), languageId, 1, text);
      textDocuments.push(doc);
      onDidOpenTextDocument.fire(doc);
      return doc;
    },
  },
};

module.exports = new Proxy(explicit, {
  get(target, prop) {
    if (prop in target) return target[prop];
    if (prop === '__esModule') return false;
    return auto(String(prop));
  },
});
