// The engine in a page: a Web Worker around the WebAssembly engine, so that the page never waits
// for it. The page posts protocol lines (strings, docs/ENGINE_PROTOCOL.md) and receives
//   {line: "..."}    each line the engine writes,
//   {error: "..."}   what it writes to stderr, or why it could not start,
//   {done: STATUS}   when it has ended (0 after quit), after which the worker takes no more lines.
// Lines posted while the module loads are kept and handed over in order.
//
//   const engine = new Worker('amazons-engine-worker.js');
//   engine.onmessage = (e) => { if (e.data.line) console.log(e.data.line); };
//   engine.postMessage('go movetime 1000');
//
// Its search threads are Web Workers sharing the module's memory, which the browser allows only
// to a cross-origin isolated page (the server sends the headers; see server/net/http.cpp). A page
// that is not (plain http:// on a LAN address) starts 'amazons-engine-worker.js?single': the
// build without threads, which handles each line as it comes, a search to its end, and refuses
// `go infinite` (the page stops a search by ending the worker).
'use strict';
const single = new URLSearchParams(self.location.search).has('single');
const core = new URL(single ? 'amazons-engine-core-st.js' : 'amazons-engine-core.js', self.location.href).href;
importScripts(core);

let engine = null;
const waiting = [];

function give(line) {
  engine.ccall('amazons_engine_line', null, ['string'], [String(line)]);
}

self.onmessage = (event) => {
  if (engine) give(event.data);
  else waiting.push(event.data);
};

if (!single && typeof SharedArrayBuffer === 'undefined') {
  self.postMessage({ error: 'the page is not cross-origin isolated: no SharedArrayBuffer for the engine\'s threads' });
  self.postMessage({ done: 2 });
} else {
  createAmazonsEngine({
    // Where the search threads' workers load the module from: the loader finds its own address
    // only in a page (document.currentScript), not in a worker.
    mainScriptUrlOrBlob: core,
    print: (line) => self.postMessage({ line }),
    printErr: (line) => self.postMessage({ error: line }),
    onEngineDone: (status) => self.postMessage({ done: status }),
  }).then((module) => {
    engine = module;
    engine._amazons_engine_start();
    for (const line of waiting.splice(0)) give(line);
  }, (reason) => {
    self.postMessage({ error: 'the engine did not load: ' + reason });
    self.postMessage({ done: 2 });
  });
}
