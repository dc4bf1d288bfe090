#!/bin/bash
# Install the Debian packages the build and the QEMU tests need, only those
# missing.  CI runs as root with no stdin on a fresh machine whose apt lists
# may be empty: update once, then install non-interactively.
set -euo pipefail

PKGS="linux-source-6.12 qemu-system-x86 busybox-static gcc make bc flex bison
      libelf-dev libssl-dev cpio ccache dwarves clang llvm libbpf-dev bpftool
      zlib1g-dev libzstd-dev
      xz-utils git python3 rsync kmod gnuplot-nox
      bochs bochsbios vgabios syslinux mtools dosfstools
      golang-gvisor-gvisor-dev golang-1.19-go g++ redis-tools"

missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null; then
	$SUDO apt-get update -q </dev/null
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi
