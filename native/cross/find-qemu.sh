#!/bin/sh
# Prints the path of a qemu-user emulator for ARCH (aarch64 or x86_64), version 8 or newer.
# QEMU 7.2 (Debian 12's qemu-user) aborts when a forked child of a threaded process starts a
# thread ("cpu == current_cpu"), which the agent does in every forked worker; 8.0 fixed it.
# Order: $VPROF_QEMU, qemu-ARCH on PATH when new enough, a copy fetched earlier, else the
# static qemu from Debian's backports, fetched with apt-get into DIR without touching the
# machine's apt sources (private lists), and only its one emulator kept.
# Usage: find-qemu.sh ARCH DIR
set -eu
arch=$1
mkdir -p "$2" && dir=$(cd "$2" && pwd)
major() { "$1" --version 2>/dev/null | sed -n 's/^qemu-[a-z0-9_]* version \([0-9]*\).*/\1/p' | head -n1; }
ok() { v=$(major "$1"); [ -n "$v" ] && [ "$v" -ge 8 ]; }

if [ -n "${VPROF_QEMU:-}" ]; then ok "$VPROF_QEMU" && { echo "$VPROF_QEMU"; exit 0; }
  echo "vprof: VPROF_QEMU=$VPROF_QEMU is not a qemu-user 8 or newer" >&2; exit 2; fi
if command -v "qemu-$arch" >/dev/null 2>&1 && ok "$(command -v "qemu-$arch")"; then command -v "qemu-$arch"; exit 0; fi
cached="$dir/usr/bin/qemu-$arch"
if [ -x "$cached" ] && ok "$cached"; then echo "$cached"; exit 0; fi

codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null)
if [ -z "$codename" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "vprof: need qemu-$arch 8 or newer (install qemu-user from your distribution, or set VPROF_QEMU)" >&2; exit 2
fi
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/sources.list.d"
echo "deb http://deb.debian.org/debian $codename-backports main" > "$dir/apt/sources.list"
opts="-o Dir::Etc::sourcelist=$dir/apt/sources.list -o Dir::Etc::sourceparts=$dir/apt/sources.list.d -o Dir::State::Lists=$dir/apt/lists
      -o Dir::Cache=$dir/apt/cache -o APT::Sandbox::User=root -o Debug::NoLocking=1"
echo "vprof: fetching qemu-user from Debian $codename-backports (qemu-$arch $(command -v "qemu-$arch" >/dev/null 2>&1 && echo "here is older than 8" || echo "is not installed"))" >&2
# shellcheck disable=SC2086
apt-get $opts -qq update >&2
# shellcheck disable=SC2086
(cd "$dir/apt" && rm -f qemu-user_*.deb && apt-get $opts -qq download "qemu-user/$codename-backports" >&2)
(cd "$dir" && dpkg-deb --fsys-tarfile apt/qemu-user_*.deb | tar -x "./usr/bin/qemu-$arch")
rm -f "$dir"/apt/qemu-user_*.deb
ok "$cached" || { echo "vprof: the qemu-$arch fetched from $codename-backports does not run or is older than 8" >&2; exit 2; }
echo "$cached"
