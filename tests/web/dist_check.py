#!/usr/bin/python3
"""The built web client's files as the server sends them (web/dist_names.cmake,
web/precompress.cmake, server/http/web_files.h): index.html names its script and style sheet by their
content's digest, the server agrees with the build on that digest (so it lets browsers keep them
a year), and every compressed copy the build wrote is the file's bytes and is sent when asked for.

  dist_check.py AMAZONS_SERVER DIST
"""
import gzip
import hashlib
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile

IMMUTABLE = "public, max-age=31536000, immutable"


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def get(port, path, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def main():
    server_binary, dist = sys.argv[1], sys.argv[2]
    index = open(os.path.join(dist, "index.html")).read()
    hashed = re.findall(r'"((app|style)\.([0-9a-f]{16})\.(js|css))"', index)
    if sorted(h[1] for h in hashed) != ["app", "style"]:
        fail("index.html does not name app.HASH.js and style.HASH.css: %s" % index)
    for name, _, digest, _ in hashed:
        content = open(os.path.join(dist, name), "rb").read()
        if hashlib.sha256(content).hexdigest()[:16] != digest:
            fail("%s: its name is not its content's digest" % name)
    if re.search(r'"(app\.js|style\.css)"', index):
        fail("index.html still names an unhashed file")

    tmp = tempfile.mkdtemp(prefix="amazons-dist-check-")
    server = subprocess.Popen(
        [server_binary, "--port", "0", "--bind", "127.0.0.1", "--db", os.path.join(tmp, "a.db"),
         "--discovery-port", "-1", "--web-root", dist], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        port = 0
        for line in server.stdout:
            m = re.search(rb"listening on port (\d+)", line)
            if m:
                port = int(m.group(1))
                break
        if not port:
            fail("the server did not start")

        response, body = get(port, "/")
        if body.decode() != index or response.getheader("Cache-Control") != "no-cache":
            fail("/: %s %r" % (response.status, response.getheaders()))
        again, _ = get(port, "/", **{"If-None-Match": response.getheader("ETag")})
        if again.status != 304:
            fail("/ with its ETag: %d, not 304" % again.status)

        for name, _, _, _ in hashed:
            response, body = get(port, "/" + name)
            if response.getheader("Cache-Control") != IMMUTABLE:
                fail("%s: Cache-Control %r" % (name, response.getheader("Cache-Control")))

        # Every copy the build compressed is its file, and is what a browser that asks gets.
        copies = 0
        for name in sorted(os.listdir(dist)):
            path = os.path.join(dist, name)
            if name.endswith(".gz"):
                original = open(path[:-3], "rb").read()
                if gzip.decompress(open(path, "rb").read()) != original:
                    fail("%s is not %s gzipped" % (name, name[:-3]))
                response, body = get(port, "/" + name[:-3], **{"Accept-Encoding": "gzip"})
                if response.getheader("Content-Encoding") != "gzip" or gzip.decompress(body) != original:
                    fail("%s: not sent gzipped (%r)" % (name[:-3], response.getheaders()))
                copies += 1
            elif name.endswith(".br") and shutil.which("brotli"):
                original = open(path[:-3], "rb").read()
                response, body = get(port, "/" + name[:-3], **{"Accept-Encoding": "gzip, deflate, br"})
                decoded = subprocess.run(["brotli", "-d", "-c"], input=body, capture_output=True).stdout
                if response.getheader("Content-Encoding") != "br" or decoded != original:
                    fail("%s: not sent as brotli (%r)" % (name[:-3], response.getheaders()))
                copies += 1
        for name in os.listdir(dist):
            text = re.search(r"\.(html|js|css|wasm)$", name)
            if text and os.path.getsize(os.path.join(dist, name)) > 1024 and not os.path.exists(os.path.join(dist, name + ".gz")):
                fail("%s has no gzipped copy" % name)
        wasm = [n for n in os.listdir(dist) if n.endswith(".wasm")]
        for name in wasm:
            response, _ = get(port, "/" + name, **{"Accept-Encoding": "gzip"})
            if response.getheader("Content-Type") != "application/wasm":
                fail("%s gzipped: Content-Type %r" % (name, response.getheader("Content-Type")))
        print("index.html names %s; %d compressed copies served; %d WebAssembly files"
              % (", ".join(h[0] for h in hashed), copies, len(wasm)))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
