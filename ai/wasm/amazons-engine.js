#!/usr/bin/env node
// amazons-engine under Node: the WebAssembly engine as a console program speaking the engine
// protocol (docs/ENGINE_PROTOCOL.md) on stdin and stdout, like the native amazons-engine. Tests
// compare the two; a user can check the browser's engine with it. The exit status is the
// engine's: 0 after quit or the end of input, 2 when its configuration does not load.
// `--single` runs the build without threads, which the browser uses on pages that may not share
// memory.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const single = process.argv.includes('--single');
const name = single ? 'amazons-engine-core-st' : 'amazons-engine-core';
const createEngine = require('./' + name + '.js');

// Node 18 and later have fetch(), which Emscripten's loader tries on a file path and fails
// ("Failed to parse URL"): the module's bytes are handed over instead.
const wasmBinary = fs.readFileSync(path.join(__dirname, name + '.wasm'));

createEngine({
  wasmBinary,
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  // Exits once what was written has reached the pipe.
  onEngineDone: (status) => process.stdout.write('', () => process.exit(status)),
}).then((engine) => {
  engine._amazons_engine_start();
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on('line', (line) => engine.ccall('amazons_engine_line', null, ['string'], [line]));
  input.on('close', () => engine._amazons_engine_finish());
});
