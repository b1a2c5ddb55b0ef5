import os, sys

STATE = []

def remember(x):
    STATE.append(x)
    return len(STATE)

def do_sys_exit():
    sys.exit(3)

def do_os_exit():
    os._exit(4)

def do_keyboard():
    raise KeyboardInterrupt

def do_raise():
    return 1 / 0
