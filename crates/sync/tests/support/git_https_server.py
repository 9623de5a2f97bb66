"""A git server over HTTPS for the sync tests: `git http-backend` behind TLS and HTTP Basic authentication.

    python3 git_https_server.py ROOT NAME USER TOKEN

makes a self-signed certificate for 127.0.0.1 with `openssl` (ROOT/NAME.pem, its key beside it), serves the
bare repositories under ROOT at https://127.0.0.1:PORT/REPO, asks for USER and TOKEN on every request, and
prints "PORT CERTIFICATE" on its first line once it listens (nothing, and exits, when `openssl` or `git`
is missing). It is what a forge (GitHub, GitLab, Gitea) does for the parts a git client sees: smart HTTP,
a 401 with a Basic challenge, TLS with a certificate.
"""

import base64
import http.server
import os
import ssl
import subprocess
import sys


def read_body(handler):
    """The request's body, whole: by its length, or chunk by chunk (libgit2 streams a push's pack)."""
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        body = bytearray()
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                handler.rfile.readline()
                return bytes(body)
            body += handler.rfile.read(size)
            handler.rfile.readline()
    return handler.rfile.read(int(handler.headers.get("Content-Length") or 0))


class GitHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def authorized(self):
        expected = base64.b64encode(f"{USER}:{TOKEN}".encode()).decode()
        if self.headers.get("Authorization") == f"Basic {expected}":
            return True
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="redline-test"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False

    def backend(self, method):
        body = read_body(self) if method == "POST" else b""
        if not self.authorized():
            return
        path, _, query = self.path.partition("?")
        env = dict(
            os.environ,
            GIT_PROJECT_ROOT=ROOT,
            GIT_HTTP_EXPORT_ALL="1",
            REMOTE_USER=USER,
            REQUEST_METHOD=method,
            PATH_INFO=path,
            QUERY_STRING=query,
            CONTENT_TYPE=self.headers.get("Content-Type", ""),
            CONTENT_LENGTH=str(len(body)),
        )
        encoding = self.headers.get("Content-Encoding")
        if encoding:
            env["HTTP_CONTENT_ENCODING"] = encoding
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.backend("GET")

    def do_POST(self):
        self.backend("POST")


def certificate(root, name):
    """A certificate for 127.0.0.1 and its key, made in `root`; None when there is no `openssl` or `git`."""
    cert, key = os.path.join(root, name + ".pem"), os.path.join(root, name + ".key")
    try:
        subprocess.run(["git", "--version"], capture_output=True, check=True)
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return cert, key


ROOT, NAME, USER, TOKEN = sys.argv[1:5]
made = certificate(ROOT, NAME)
if made is None:
    sys.exit(0)
CERT, KEY = made
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), GitHandler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(CERT, KEY)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], CERT, flush=True)
server.serve_forever()
