import socket

def attack(port):
    s = socket.socket()
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        return "connected"
    except OSError as e:
        return "failed:" + type(e).__name__
