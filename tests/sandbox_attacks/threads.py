import threading, time

COUNT = [0]

def attack():
    def run():
        while True:
            COUNT[0] += 1
            time.sleep(0.001)
    threading.Thread(target=run, daemon=True).start()
    return "started"

def threads_now():
    return threading.active_count()
