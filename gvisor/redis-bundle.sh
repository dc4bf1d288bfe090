#!/bin/bash
# Debian's redis-server and redis-benchmark (package redis-tools: one
# binary, redis-check-rdb, is the server when its name is not that) with
# the shared libraries they load, for the initramfs' /gvisor/redis:
#   redis-bundle.sh OUTDIR
# The binaries are Debian's, unmodified and dynamically linked; the guest
# starts them through the bundled loader (lib/ld-linux-x86-64.so.2
# --library-path lib ...), natively and under runsc alike, so the
# initramfs needs no /lib of its own.
set -euo pipefail
out=$1
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/lib"
install -m 755 /usr/bin/redis-check-rdb "$tmp/redis-server"
install -m 755 /usr/bin/redis-benchmark /usr/bin/redis-cli "$tmp/"
for bin in /usr/bin/redis-check-rdb /usr/bin/redis-benchmark /usr/bin/redis-cli; do
	# "name => /path (addr)" and the loader's own "/path (addr)" lines.
	ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
done | sort -u | while read -r lib; do
	install -m 755 "$(readlink -f "$lib")" "$tmp/lib/$(basename "$lib")"
done
[ -x "$tmp/lib/ld-linux-x86-64.so.2" ] || { echo "redis-bundle: no loader found" >&2; exit 1; }
rm -rf "$out"
mv "$tmp" "$out"
