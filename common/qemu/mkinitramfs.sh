#!/bin/bash
# Pack an initramfs with busybox, /init and the given directories:
#   mkinitramfs.sh OUT.cpio GEN_INIT_CPIO TESTS_DIR [BENCH_DIR [GVISOR_DIR]]
# GVISOR_DIR's files (runsc) and folders (redis) go to /gvisor.
set -euo pipefail
out=$1 gen=$2 tests=$3 bench=${4:-} gvisor=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
list=$(mktemp)
trap 'rm -f "$list"' EXIT

busybox=$(command -v busybox || echo /bin/busybox)
{
	echo "dir /bin 755 0 0"
	echo "dir /dev 755 0 0"
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "dir /proc 755 0 0"
	echo "dir /sys 755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "file /bin/busybox $busybox 755 0 0"
	echo "file /init $here/init.sh 755 0 0"
	for d in tests bench gvisor; do
		depth=1
		case $d in
		tests)	src=$tests ;;
		bench)	src=$bench ;;
		gvisor)	src=$gvisor depth=3
			[ -n "$src" ] || continue ;;
		esac
		echo "dir /$d 755 0 0"
		[ -n "$src" ] && [ -d "$src" ] || continue
		# /gvisor's subfolders too (redis): parents before their files.
		(cd "$src" && find -L . -mindepth 1 -maxdepth $depth \( -type d -o -type f \) | sort) |
		while read -r f; do
			f=${f#./}
			if [ -d "$src/$f" ]; then
				echo "dir /$d/$f 755 0 0"
			else
				echo "file /$d/$f $src/$f 755 0 0"
			fi
		done
	done
} > "$list"
"$gen" "$list" > "$out.tmp"
mv "$out.tmp" "$out"
