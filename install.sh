#!/usr/bin/env bash
# Install grader and what its sandbox needs on a Debian/Ubuntu machine.
#   ./install.sh          the grader, bubblewrap and a JDK (for Java program assignments)
#   ./install.sh --test   also the test extras and headless Chromium (report screenshots)
#   ./install.sh --matlab also GNU Octave, to grade MATLAB .m submissions (--test installs it too)
set -euo pipefail
cd "$(dirname "$0")"

want_test=0
want_matlab=0
for arg in "$@"; do
    case "$arg" in
        --test) want_test=1 ;;
        --matlab) want_matlab=1 ;;
        *) echo "usage: ./install.sh [--test] [--matlab]" >&2; exit 2 ;;
    esac
done

packages=()
command -v bwrap >/dev/null || packages+=(bubblewrap)
command -v javac >/dev/null || packages+=(default-jdk-headless)
if (( want_test || want_matlab )); then
    command -v octave-cli >/dev/null || packages+=(octave)   # MATLAB .m submissions (the tests grade some)
fi
if (( want_test )); then
    command -v chromium >/dev/null || packages+=(chromium)
fi

if (( ${#packages[@]} )); then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    if command -v apt-get >/dev/null; then
        echo "install.sh: installing ${packages[*]}" >&2
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
    else
        echo "install.sh: please install ${packages[*]} with your package manager" >&2
    fi
fi

extras=""
(( want_test )) && extras="[test,dask]"
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e ".${extras}"
