#!/usr/bin/env bash
# Install grader on a Debian/Ubuntu machine, with nothing but its system Python.
#   ./install.sh          bubblewrap, a JDK (Java program assignments), python3-venv; the grader in ./.venv;
#                         a `grader` launcher in /usr/local/bin (root) or ~/.local/bin (anyone else)
#   ./install.sh --test   also the test extras and headless Chromium (report screenshots)
#   ./install.sh --matlab also GNU Octave, to grade MATLAB .m submissions (--test installs it too)
# The system Python refuses `pip install` into itself (PEP 668), so the grader lives in its own
# virtual environment, ./.venv. PYTHON=/path/to/python3 picks another interpreter (default: the
# system's /usr/bin/python3 when there is one); GRADER_BIN_DIR another folder for the launcher.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
venv=$here/.venv

want_test=0
want_matlab=0
for arg in "$@"; do
    case "$arg" in
        --test) want_test=1 ;;
        --matlab) want_matlab=1 ;;
        *) echo "usage: ./install.sh [--test] [--matlab]" >&2; exit 2 ;;
    esac
done

say() { echo "install.sh: $*" >&2; }
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"

python=${PYTHON:-}
if [[ -z $python ]]; then
    if [[ -x /usr/bin/python3 ]]; then python=/usr/bin/python3; else python=$(command -v python3 || true); fi
fi

apt_install() {   # apt_install required|optional PACKAGE...
    local need=$1; shift
    (( $# )) || return 0
    if ! command -v apt-get >/dev/null; then
        say "please install $* with your package manager"
        [[ $need == optional ]] || exit 1
        return 0
    fi
    say "installing $*"
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null; then
        say "could not install $*"
        [[ $need == optional ]] || exit 1
    fi
}

required=()
optional=()
command -v bwrap >/dev/null || required+=(bubblewrap)
command -v javac >/dev/null || required+=(default-jdk-headless)
if [[ -z $python ]] || ! command -v "$python" >/dev/null; then
    required+=(python3 python3-venv)
    python=/usr/bin/python3
elif ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    required+=(python3-venv)     # Debian splits venv/ensurepip out of the interpreter
fi
if (( want_test || want_matlab )); then
    command -v octave-cli >/dev/null || required+=(octave)   # MATLAB .m submissions (the tests grade some)
fi
if (( want_test )); then
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null || optional+=(chromium)
fi
if (( ${#required[@]} + ${#optional[@]} )) && command -v apt-get >/dev/null; then
    $sudo apt-get update -qq
fi
apt_install required "${required[@]}"
apt_install optional "${optional[@]}"

"$python" - <<'EOF' || { say "grader needs Python 3.10 or newer; set PYTHON=/path/to/python3"; exit 1; }
import sys
sys.exit(sys.version_info < (3, 10))
EOF

# A venv made by another interpreter (or a half-made one) is rebuilt, not patched.
interp=$(readlink -f "$(command -v "$python")")
if [[ ! -x $venv/bin/python || "$(cat "$venv/.grader-python" 2>/dev/null)" != "$interp" ]]; then
    say "creating $venv with $interp"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    echo "$interp" > "$venv/.grader-python"
fi

extras=""
(( want_test )) && extras="[test,dask]"
stamp="$interp $extras $(sha256sum pyproject.toml | cut -d' ' -f1)"
if [[ "$(cat "$venv/.grader-installed" 2>/dev/null)" != "$stamp" ]]; then
    say "installing grader${extras} into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".${extras}"
    echo "$stamp" > "$venv/.grader-installed"
fi
# Bytecode for the grader's own modules and the references, written here once (stale files only):
# where PYTHONDONTWRITEBYTECODE is set, or the checkout is read-only to the user grading, every
# process of a run (the command, each worker, each sandbox's zygote) would compile them again.
"$venv/bin/python" -m compileall -q -j 0 grader reference >/dev/null || say "could not precompile the grader's modules (it works, only starts slower)"

# The launcher is a link to the venv's own script, which names the venv's interpreter.
bindir=${GRADER_BIN_DIR:-}
if [[ -z $bindir ]]; then
    if [[ $(id -u) -eq 0 ]]; then bindir=/usr/local/bin; else bindir=$HOME/.local/bin; fi
fi
mkdir -p "$bindir"
ln -sfn "$venv/bin/grader" "$bindir/grader"
found=$(command -v grader || true)
if [[ $found == "$bindir/grader" ]]; then
    say "grader is ready: $bindir/grader"
elif [[ -z $found ]]; then
    say "grader is in $bindir, which is not on your PATH: add it (export PATH=\"$bindir:\$PATH\") or run $bindir/grader"
else
    say "grader is in $bindir/grader, but $found comes first on your PATH: run $bindir/grader or reorder PATH"
fi
