"""Line framing on the child's sockets: read one request line, send one reply line."""
from __future__ import annotations

import socket

from _gradechild import codec


class LineReader:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""

    def readline(self) -> bytes | None:
        while b"\n" not in self.buf:
            if len(self.buf) > codec.MAX_LINE_BYTES:
                raise codec.CodecError("oversized request")
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line


def send(sock: socket.socket, msg: dict[str, object]) -> None:
    sock.sendall(codec.dumps_line(msg))
