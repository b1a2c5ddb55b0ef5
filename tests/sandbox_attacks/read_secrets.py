import os

def attack(paths):
    """Try to read or list every path; report what worked."""
    got = {}
    for p in paths:
        try:
            if os.path.isdir(p):
                got[p] = "listed:" + ",".join(sorted(os.listdir(p)))
            else:
                with open(p, "rb") as f:
                    got[p] = "read:" + f.read(200).decode("latin-1")
        except Exception as e:
            got[p] = "denied:" + type(e).__name__
    return got

def who():
    with open("/proc/self/status") as f:
        st = dict(line.split(":", 1) for line in f.read().splitlines() if ":" in line)
    return {"uid": os.getuid(), "caps": [st[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")],
            "nnp": st.get("NoNewPrivs", "").strip(), "procs": sorted(p for p in os.listdir("/proc") if p.isdigit())}
