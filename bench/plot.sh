#!/bin/bash
# Draw bench/results/latest-{wall,icount}.svg from the .dat files report.py wrote.
#   plot.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
command -v gnuplot >/dev/null || { echo "bench: no gnuplot, no plots"; exit 0; }
ncols() { head -1 "$1" | wc -w; }
plot() {	# dat svg title ylabel
	[ -f "$1" ] || return 0
	gnuplot -e "dat='$1'; out='$2'; ttl='$3'; ylab='$4'; ncols=$(ncols "$1")" \
		"$here/plot.gp" && echo "bench: plot in $2"
}
plot "$out/latest.dat" "$out/latest-wall.svg" \
	'Cost per op and mechanism (median, wall clock)' 'microseconds per op'
plot "$out/latest-icount.dat" "$out/latest-icount.svg" \
	'Path length per op and mechanism (median, QEMU -icount; spin-waiting mechanisms left out)' \
	'thousands of guest instructions per op'
